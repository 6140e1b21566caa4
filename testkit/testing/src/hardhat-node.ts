/**
 * A local Ethereum peer for tests and the dev stack: Hardhat Network (`hardhat node`, hardhat 2:
 * version 3 needs Node 22), chain id 31337, on a free loopback port, with its 20 funded dev
 * accounts as it prints them (derived from its publicly known default mnemonic "test test … junk").
 * Start it once per test file; `stop()` ends it (SIGTERM, SIGKILL after a deadline) and removes its
 * temporary project directory. The chain lives in memory: every start is a fresh chain.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, stopChild } from "./processes.ts";

export const HARDHAT_CHAIN_ID = 31337;
/** Hardhat's default: 20 accounts of 10,000 ETH each. */
export const HARDHAT_ACCOUNT_COUNT = 20;
/** The mnemonic every Hardhat Network derives its dev accounts from (m/44'/60'/0'/0/i). Public: never use it elsewhere. */
export const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
/** Hardhat compiles nothing here, but loading it and printing 20 accounts takes seconds on a busy machine. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const FREE_PORT_ATTEMPTS = 3;
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const READY_LINE = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/\S+?)\/?\s/;
const ACCOUNT_LINES = /Account #(\d+): (0x[0-9a-fA-F]{40}) \((\d+) ETH\)\s+Private Key: (0x[0-9a-fA-F]{64})/g;

export interface HardhatAccount {
  index: number;
  /** EIP-55 checksummed, as Hardhat prints it. */
  address: string;
  privateKey: string;
  /** The balance at genesis, in whole ETH. */
  balanceEth: number;
}

export interface HardhatNode {
  /** JSON-RPC endpoint, e.g. http://127.0.0.1:43117 */
  url: string;
  port: number;
  chainId: number;
  accounts: HardhatAccount[];
  /** A JSON-RPC 2.0 call straight to the node (set-up and assertions; not the code under test). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Everything the node printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export class HardhatRpcError extends Error {
  override name = "HardhatRpcError";
  readonly method: string;
  readonly code: number;
  constructor(method: string, code: number, message: string) {
    super(`hardhat ${method}: ${code} ${message}`);
    this.method = method;
    this.code = code;
  }
}

export interface StartHardhatOptions {
  /** Default: a free port chosen by the OS (retried if taken before Hardhat binds it). */
  port?: number;
  /** The chain id it answers (another EVM chain's, say 137); default Hardhat's 31337. */
  chainId?: number;
}

export async function startHardhat(options: StartHardhatOptions = {}): Promise<HardhatNode> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(port, options.chainId ?? HARDHAT_CHAIN_ID);
    } catch (error) {
      const portTaken = /EADDRINUSE/.test(String(error));
      if (!portTaken || options.port !== undefined || attempt >= FREE_PORT_ATTEMPTS) throw error;
    }
  }
}

async function launch(port: number, expectedChainId: number): Promise<HardhatNode> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "chaingate-hardhat-"));
  const config = path.join(dir, "hardhat.config.cjs");
  await writeFile(config, `module.exports = { networks: { hardhat: { chainId: ${expectedChainId} } } };\n`);
  const binary = createRequire(import.meta.url).resolve("hardhat/internal/cli/bootstrap");
  const child = spawn(process.execPath, [binary, "node", "--hostname", "127.0.0.1", "--port", String(port), "--config", config], {
    // Hardhat refuses to run unless it resolves from the working directory (HH12): run it from this package.
    cwd: PACKAGE_DIR,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", CI: "true", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // If the test process dies without calling stop(), do not leave a node running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));
  let output = "";
  const started = new Promise<{ url: string; accounts: HardhatAccount[] }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`hardhat node did not start within ${START_TIMEOUT_MS} ms:\n${output.slice(-2_000)}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const ready = READY_LINE.exec(output);
      const accounts = parseAccounts(output);
      // The accounts are printed after the ready line: wait for all of them.
      if (ready && accounts.length === HARDHAT_ACCOUNT_COUNT) {
        clearTimeout(timer);
        resolve({ url: ready[1]!, accounts });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`hardhat node exited during start-up (code ${code}, signal ${signal}):\n${output.slice(-2_000)}`));
    });
  });
  let url: string;
  let accounts: HardhatAccount[];
  try {
    ({ url, accounts } = await started);
  } catch (error) {
    await stopAndClean(child, dir);
    throw error;
  }
  const rpc = createJsonRpcCaller(url, (method, code, message) => new HardhatRpcError(method, code, message));
  const chainId = Number(await rpc<string>("eth_chainId"));
  if (chainId !== expectedChainId) {
    await stopAndClean(child, dir);
    throw new Error(`hardhat node at ${url} reports chain id ${chainId}, expected ${expectedChainId}`);
  }
  return { url, port, chainId, accounts, rpc, output: () => output, stop: () => stopAndClean(child, dir) };
}

function parseAccounts(text: string): HardhatAccount[] {
  return [...text.matchAll(ACCOUNT_LINES)].map((match) => ({
    index: Number(match[1]),
    address: match[2]!,
    balanceEth: Number(match[3]),
    privateKey: match[4]!,
  }));
}

/**
 * True for a request sent on a kept-alive socket the node had just closed as idle ("other side
 * closed" with nothing answered): the node never read it, so sending it again is safe. Seen under
 * load, when a busy event loop lets the node's keep-alive timeout pass before fetch reuses the socket.
 */
function isIdleSocketRace(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return error instanceof TypeError && cause?.code === "UND_ERR_SOCKET";
}

/** JSON-RPC 2.0 calls to a dev node; an error answer is thrown as `toError` makes it. */
export function createJsonRpcCaller(url: string, toError: (method: string, code: number, message: string) => Error) {
  let id = 0;
  return async <T = unknown>(method: string, params: unknown[] = []): Promise<T> => {
    const send = () =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        signal: AbortSignal.timeout(START_TIMEOUT_MS),
      });
    const response = await send().catch((error: unknown) => {
      if (isIdleSocketRace(error)) return send();
      throw error;
    });
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) throw toError(method, body.error.code, body.error.message);
    return body.result as T;
  };
}

async function stopAndClean(child: ChildProcess, dir: string): Promise<void> {
  await stopChild(child, { timeoutMs: STOP_TIMEOUT_MS });
  await rm(dir, { recursive: true, force: true });
}
