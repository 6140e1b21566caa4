/**
 * A second, real Ethereum peer for tests and the dev stack: Anvil (Foundry's node, the binary that
 * ships in the npm package `@foundry-rs/anvil-linux-amd64`). Unlike Hardhat 2 it answers
 * `debug_traceBlockByHash` (callTracer), `trace_block` and `eth_getBlockReceipts`, and reorgs for
 * real (`anvil_reorg`, `evm_snapshot`/`evm_revert`). Chain id 31337 and the same 20 dev accounts as
 * Hardhat (the public "test test … junk" mnemonic), so it is a drop-in for a `HardhatNode`; like
 * Hardhat's automine, a transaction sent through `rpc` is mined when the call returns (Anvil mines
 * in the background and answers first: `rpc` waits for the receipt while automine is on).
 * Start it once per test file; the chain lives in memory: every start is a fresh chain.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { createJsonRpcCaller, HARDHAT_ACCOUNT_COUNT, HARDHAT_CHAIN_ID, type HardhatAccount, type HardhatNode } from "./hardhat-node.ts";
import { stopChild } from "./processes.ts";

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** Anvil logs every call it serves: keep only the tail, so a long test does not hold it all. */
const OUTPUT_KEPT = 64 * 1024;
const LISTENING_LINE = /Listening on (\S+):(\d+)/;
const ACCOUNT_LINE = /^\((\d+)\) (0x[0-9a-fA-F]{40}) \((\d+)(?:\.\d+)? ETH\)$/gm;
const KEY_LINE = /^\((\d+)\) (0x[0-9a-fA-F]{64})$/gm;
const MINED_POLL_MS = 5;
const MINED_TIMEOUT_MS = 20_000;

export class AnvilRpcError extends Error {
  override name = "AnvilRpcError";
  readonly method: string;
  readonly code: number;
  constructor(method: string, code: number, message: string) {
    super(`anvil ${method}: ${code} ${message}`);
    this.method = method;
    this.code = code;
  }
}

/** What a test needs of the node: Hardhat's shape, so helpers written for one serve both. */
export type AnvilNode = HardhatNode;

export interface StartAnvilOptions {
  /** Default: a port the OS chooses (Anvil binds port 0 and prints the one it got). */
  port?: number;
  /** The chain id it answers (another EVM chain's, say 137 or 56); default Hardhat's 31337. */
  chainId?: number;
  /** Seconds between blocks; default: automine (a block per transaction). */
  blockTimeSeconds?: number;
}

/** The Anvil binary of the npm package (linux x64, what this project's machines are). */
export function anvilBinary(): string {
  const manifest = createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/package.json");
  return path.join(path.dirname(manifest), "bin", "anvil");
}

export async function startAnvil(options: StartAnvilOptions = {}): Promise<AnvilNode> {
  const chainId = options.chainId ?? HARDHAT_CHAIN_ID;
  const args = ["--host", "127.0.0.1", "--port", String(options.port ?? 0), "--chain-id", String(chainId)];
  args.push("--accounts", String(HARDHAT_ACCOUNT_COUNT));
  if (options.blockTimeSeconds !== undefined) args.push("--block-time", String(options.blockTimeSeconds));
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  // If the test process dies without calling stop(), do not leave a node running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > 2 * OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
  };
  const started = new Promise<{ url: string; port: number; accounts: HardhatAccount[] }>((resolve, reject) => {
    let banner = "";
    const timer = setTimeout(
      () => reject(new Error(`anvil did not start within ${START_TIMEOUT_MS} ms:\n${banner.slice(-2_000)}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      banner += chunk.toString("utf8");
      const listening = LISTENING_LINE.exec(banner);
      if (!listening) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve({ url: `http://${listening[1]}:${listening[2]}`, port: Number(listening[2]), accounts: parseAccounts(banner) });
    };
    child.stdout!.on("data", onData);
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited during start-up (code ${code}, signal ${signal}):\n${banner.slice(-2_000)}`));
    });
  });
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  let url: string;
  let port: number;
  let accounts: HardhatAccount[];
  try {
    ({ url, port, accounts } = await started);
  } catch (error) {
    await stopChild(child, { timeoutMs: STOP_TIMEOUT_MS });
    throw error;
  }
  if (accounts.length !== HARDHAT_ACCOUNT_COUNT) {
    await stopChild(child, { timeoutMs: STOP_TIMEOUT_MS });
    throw new Error(`anvil printed ${accounts.length} dev accounts, expected ${HARDHAT_ACCOUNT_COUNT}`);
  }
  const call = createJsonRpcCaller(url, (method, code, message) => new AnvilRpcError(method, code, message));
  let automine = options.blockTimeSeconds === undefined;
  const rpc = async <T = unknown>(method: string, params: unknown[] = []): Promise<T> => {
    const result = await call<T>(method, params);
    if (method === "evm_setAutomine") automine = params[0] === true;
    if (automine && (method === "eth_sendTransaction" || method === "eth_sendRawTransaction")) await untilMined(call, result as string);
    return result;
  };
  return { url, port, chainId, accounts, rpc, output: () => output, stop: () => stop(child) };
}

/** Waits for the transaction's receipt: Anvil answers a send before its background miner has mined it. */
async function untilMined(call: ReturnType<typeof createJsonRpcCaller>, hash: string): Promise<void> {
  const deadline = Date.now() + MINED_TIMEOUT_MS;
  while ((await call<unknown>("eth_getTransactionReceipt", [hash])) === null) {
    if (Date.now() > deadline) throw new Error(`anvil did not mine ${hash} within ${MINED_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, MINED_POLL_MS));
  }
}

function parseAccounts(banner: string): HardhatAccount[] {
  const keys = new Map([...banner.matchAll(KEY_LINE)].map((match) => [Number(match[1]), match[2]!]));
  return [...banner.matchAll(ACCOUNT_LINE)].map((match) => ({
    index: Number(match[1]),
    address: match[2]!,
    balanceEth: Number(match[3]),
    privateKey: keys.get(Number(match[1])) ?? "",
  }));
}

async function stop(child: ChildProcess): Promise<void> {
  await stopChild(child, { timeoutMs: STOP_TIMEOUT_MS });
}
