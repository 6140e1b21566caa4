/**
 * A local Bitcoin-compatible peer for tests and the dev stack: Debian's `litecoind` (a fork of
 * Bitcoin Core 0.21 with the same JSON-RPC) in `-regtest` mode. Tests get a throw-away node on a
 * free port; the dev start script gets a long-running one on the fixed DEV_LITECOIND_OPTIONS.
 *
 * The node has a wallet (created or loaded here) so the helper can mine and fund addresses; the
 * gateway itself never uses wallet RPCs, which the btc-proxy refuses.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, stopChild, waitForExit } from "./processes.ts";

/** How long the node may take to answer RPC after spawning (first start builds its databases). */
const START_TIMEOUT_MS = 60_000;
/** How long `stop` waits for a clean shutdown (RPC stop) before SIGKILL. */
const STOP_TIMEOUT_MS = 20_000;
const RPC_POLL_INTERVAL_MS = 100;
/** Per-call limit of the helper's own RPC calls (generating 101 blocks takes well under a second). */
const RPC_CALL_TIMEOUT_MS = 30_000;
/** Regtest coinbase outputs spend after 100 confirmations; 101 blocks make one spendable. */
export const COINBASE_MATURITY_BLOCKS = 101;
/** A port picked by the OS can be taken again before litecoind binds it; retry with a new one. */
const FREE_PORT_ATTEMPTS = 3;
const DEFAULT_FALLBACK_FEE = "0.0002";
/** fundAddress gives up after mining this many blocks beyond maturity. */
const MAX_EXTRA_FUNDING_BLOCKS = 1_000;
/** Kept above the amount when funding, so the wallet can also pay the fee. */
const FEE_MARGIN = 0.01;
const DEFAULT_WALLET_NAME = "chaingate-regtest";
/** The Debian package's real binary; /usr/bin/litecoind is a wrapper that writes ~/.litecoin. */
const BINARY_CANDIDATES = ["/usr/lib/litecoin/litecoind", "/usr/bin/litecoind"];
/** JSON-RPC codes that mean "up but not ready yet" (-28 warming up) during start-up. */
const RPC_IN_WARMUP = -28;

/**
 * The fixed node the dev stack runs (`pnpm start:dev`): port 18443, chaingate/chaingate, e.g.
 * `startLitecoindRegtest({ ...DEV_LITECOIND_OPTIONS, datadir: ".data/litecoind" })` for a chain
 * that survives restarts. The node is SIGKILLed when the starting process exits.
 */
export const DEV_LITECOIND_OPTIONS = {
  rpcPort: 18443,
  rpcUser: "chaingate",
  rpcPassword: "chaingate",
} as const satisfies LitecoindRegtestOptions;

export interface LitecoindRegtestOptions {
  /** RPC port; default a free port chosen by the OS. */
  rpcPort?: number;
  /** Default "chaingate". */
  rpcUser?: string;
  /** Default a random hex string. */
  rpcPassword?: string;
  /**
   * Authenticate with the node's own cookie file instead of rpcuser/rpcpassword (the node then
   * writes `<datadir>/regtest/.cookie`, new at every start), as production nodes often do.
   */
  cookieAuth?: boolean;
  /** Persistent data directory (created if missing, kept on stop); default a temp dir removed on stop. */
  datadir?: string;
  /** Path to litecoind; default `LITECOIND_PATH`, then the Debian package's binary. */
  binary?: string;
  /** Wallet used by `mine` and `fundAddress`; loaded if it exists in the datadir, created otherwise. */
  walletName?: string;
  /** `-fallbackfee` in LTC/kvB: regtest has no fee history, so wallet sends need it. */
  fallbackFee?: string;
  /** Additional litecoind arguments. */
  extraArgs?: string[];
  startTimeoutMs?: number;
}

export interface LitecoindRegtest {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  rpcUrl: string;
  rpcPort: number;
  rpcUser: string;
  rpcPassword: string;
  /** The node's cookie file when started with `cookieAuth` (then rpcUser/rpcPassword are unused). */
  cookieFile: string | undefined;
  datadir: string;
  walletName: string;
  /** A node-level JSON-RPC call; throws LitecoindRpcError when the node answers with an error. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** A call against the helper's wallet (`/wallet/<name>`). */
  walletRpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines `blocks` blocks (`generatetoaddress`) to `address` or to a wallet address; returns their hashes. */
  mine(blocks: number, address?: string): Promise<string[]>;
  /**
   * Sends `amount` (LTC, number or decimal string) from the wallet to `address` (`sendtoaddress`),
   * first mining mature coinbase coins when the balance is short. Returns the txid; the transaction
   * sits in the mempool until the caller mines a block.
   */
  fundAddress(address: string, amount: number | string): Promise<string>;
  /**
   * Stops the node and starts it again on the same datadir, port and credentials, with
   * `extraArgs` added for this run (e.g. `-persistmempool=0`: its mempool comes back empty).
   */
  restart(options?: { extraArgs?: string[] }): Promise<void>;
  /** Stops the node (RPC `stop`, SIGKILL after a timeout) and removes a temporary datadir. */
  stop(): Promise<void>;
}

/** A JSON-RPC error answered by the node. */
export class LitecoindRpcError extends Error {
  override name = "LitecoindRpcError" as const;
  readonly code: number;
  readonly method: string;
  constructor(method: string, code: number, message: string) {
    super(`litecoind ${method} failed: ${code} ${message}`);
    this.code = code;
    this.method = method;
  }
}

/** Spawns `litecoind -regtest` and resolves once its JSON-RPC answers and the wallet is loaded. */
export async function startLitecoindRegtest(options: LitecoindRegtestOptions = {}): Promise<LitecoindRegtest> {
  const binary = options.binary ?? process.env.LITECOIND_PATH ?? BINARY_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!binary)
    throw new Error(`litecoind not found (tried ${BINARY_CANDIDATES.join(", ")}); apt-get install -y litecoind or set LITECOIND_PATH.`);
  const rpcUser = options.rpcUser ?? "chaingate";
  const rpcPassword = options.rpcPassword ?? randomBytes(16).toString("hex");
  const temporary = options.datadir === undefined;
  const datadir = options.datadir ?? (await mkdtemp(path.join(os.tmpdir(), "chaingate-litecoind-")));
  await mkdir(datadir, { recursive: true });

  let lastError: unknown;
  const attempts = options.rpcPort === undefined ? FREE_PORT_ATTEMPTS : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const rpcPort = options.rpcPort ?? (await freePort());
    try {
      const settings = { ...options, binary, rpcUser, rpcPassword, datadir, rpcPort };
      const node = await launch(settings);
      return finishStart(node, { temporary, walletName: options.walletName ?? DEFAULT_WALLET_NAME, launch: settings });
    } catch (error) {
      lastError = error;
    }
  }
  if (temporary) await rm(datadir, { recursive: true, force: true });
  throw lastError;
}

interface LaunchedNode {
  child: ChildProcess;
  rpcUrl: string;
  rpcPort: number;
  rpcUser: string;
  rpcPassword: string;
  cookieFile: string | undefined;
  datadir: string;
  call<T>(url: string, method: string, params: unknown[]): Promise<T>;
}

async function launch(
  settings: LitecoindRegtestOptions & { binary: string; rpcUser: string; rpcPassword: string; datadir: string; rpcPort: number },
): Promise<LaunchedNode> {
  const args = [
    "-regtest",
    `-datadir=${settings.datadir}`,
    "-server=1",
    `-rpcport=${settings.rpcPort}`,
    "-rpcbind=127.0.0.1",
    "-rpcallowip=127.0.0.1",
    ...(settings.cookieAuth ? [] : [`-rpcuser=${settings.rpcUser}`, `-rpcpassword=${settings.rpcPassword}`]),
    `-fallbackfee=${settings.fallbackFee ?? DEFAULT_FALLBACK_FEE}`,
    "-txindex=1",
    // Bitcoin Core's mempool takes BIP125 replacements (bumpfee); Litecoin's refuses them
    // (txn-mempool-conflict) unless told: the peer stands in for bitcoind.
    "-mempoolreplacement=1",
    // No P2P: a test node needs no peers, and a P2P port would be one more port to collide on.
    "-listen=0",
    "-dnsseed=0",
    "-printtoconsole=0",
    ...(settings.extraArgs ?? []),
  ];
  const child = spawn(settings.binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  // If the test process dies without calling stop(), do not leave a node running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));

  const rpcUrl = `http://127.0.0.1:${settings.rpcPort}`;
  const cookieFile = settings.cookieAuth ? path.join(settings.datadir, "regtest", ".cookie") : undefined;
  const password = `Basic ${Buffer.from(`${settings.rpcUser}:${settings.rpcPassword}`).toString("base64")}`;
  // The cookie is written while the node starts and rewritten at every start: read it per call.
  const authorization = async () =>
    cookieFile ? `Basic ${Buffer.from((await readFile(cookieFile, "utf8")).trim()).toString("base64")}` : password;
  const call = async <T>(url: string, method: string, params: unknown[]): Promise<T> => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: await authorization(), "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "1.0", id: method, method, params }),
      signal: AbortSignal.timeout(RPC_CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    if (response.status === 401) throw new Error(`litecoind ${method}: HTTP 401 (rpc credentials rejected)`);
    let body: { result?: T; error?: { code: number; message: string } | null };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new Error(`litecoind ${method}: HTTP ${response.status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
    if (body.error) throw new LitecoindRpcError(method, body.error.code, body.error.message);
    return body.result as T;
  };

  const exited = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", async (code, signal) => {
      const log = await readFile(path.join(settings.datadir, "regtest", "debug.log"), "utf8").catch(() => "");
      const tail = [stderr.trim(), ...log.trim().split("\n").slice(-5)].filter(Boolean).join("\n");
      reject(new Error(`litecoind exited during start-up (code ${code}, signal ${signal}):\n${tail}`));
    });
  });
  exited.catch(() => {});
  const deadline = Date.now() + (settings.startTimeoutMs ?? START_TIMEOUT_MS);
  const ready = (async () => {
    for (;;) {
      try {
        await call(rpcUrl, "getblockchaininfo", []);
        return;
      } catch (error) {
        const warmingUp = error instanceof LitecoindRpcError && error.code === RPC_IN_WARMUP;
        const refused = error instanceof TypeError; // fetch: connection refused while the node boots
        const noCookieYet = (error as { code?: string }).code === "ENOENT";
        if ((!warmingUp && !refused && !noCookieYet) || Date.now() > deadline || child.exitCode !== null) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, RPC_POLL_INTERVAL_MS));
    }
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    await killAndWait(child);
    throw error;
  }
  return {
    child,
    rpcUrl,
    rpcPort: settings.rpcPort,
    rpcUser: settings.rpcUser,
    rpcPassword: settings.rpcPassword,
    cookieFile,
    datadir: settings.datadir,
    call,
  };
}

type LaunchSettings = Parameters<typeof launch>[0];

async function finishStart(
  node: LaunchedNode,
  settings: { temporary: boolean; walletName: string; launch: LaunchSettings },
): Promise<LitecoindRegtest> {
  const { rpcUrl } = node;
  const { walletName, temporary } = settings;
  // The running process: replaced by restart().
  let current = node;
  const walletUrl = `${rpcUrl}/wallet/${encodeURIComponent(walletName)}`;
  const rpc = <T = unknown>(method: string, params: unknown[] = []) => current.call<T>(rpcUrl, method, params);
  const walletRpc = <T = unknown>(method: string, params: unknown[] = []) => current.call<T>(walletUrl, method, params);
  const loadWallet = async () => {
    try {
      const loaded = await rpc<string[]>("listwallets");
      if (!loaded.includes(walletName)) {
        // A persistent datadir keeps its wallet between runs; a fresh one has none yet.
        await rpc("loadwallet", [walletName]).catch(() => rpc("createwallet", [walletName]));
      }
    } catch (error) {
      await killAndWait(current.child);
      throw error;
    }
  };
  const halt = async () => {
    const { child } = current;
    if (child.exitCode === null && child.signalCode === null) {
      await rpc("stop").catch(() => {});
      if (!(await waitForExit(child, STOP_TIMEOUT_MS))) await killAndWait(child);
    }
  };
  await loadWallet();

  let miningAddress: string | undefined;
  const mine = async (blocks: number, address?: string): Promise<string[]> => {
    const target = address ?? (miningAddress ??= await walletRpc<string>("getnewaddress", ["", "bech32"]));
    return rpc<string[]>("generatetoaddress", [blocks, target]);
  };

  let stopping: Promise<void> | undefined;
  return {
    rpcUrl,
    rpcPort: node.rpcPort,
    rpcUser: node.rpcUser,
    rpcPassword: node.rpcPassword,
    cookieFile: node.cookieFile,
    datadir: node.datadir,
    walletName,
    rpc,
    walletRpc,
    mine,
    async fundAddress(address, amount) {
      const needed = Number(amount) + FEE_MARGIN;
      if ((await walletRpc<number>("getbalance")) < needed) {
        // Mine past coinbase maturity until the spendable balance covers the amount.
        await mine(COINBASE_MATURITY_BLOCKS);
        // Regtest halves the subsidy every 150 blocks, so very large amounts may never be reachable.
        for (let extra = 0; (await walletRpc<number>("getbalance")) < needed; extra += 10) {
          if (extra >= MAX_EXTRA_FUNDING_BLOCKS)
            throw new Error(`litecoind wallet cannot reach ${amount} LTC by mining; fund smaller amounts.`);
          await mine(10);
        }
      }
      return walletRpc<string>("sendtoaddress", [address, amount]);
    },
    async restart(options = {}) {
      await halt();
      const extraArgs = [...(settings.launch.extraArgs ?? []), ...(options.extraArgs ?? [])];
      current = await launch({ ...settings.launch, extraArgs });
      await loadWallet();
    },
    stop() {
      stopping ??= (async () => {
        await halt();
        if (temporary) await rm(node.datadir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/** A node that failed to start or stop cleanly: no grace period. */
function killAndWait(child: ChildProcess): Promise<void> {
  return stopChild(child, { signal: "SIGKILL" });
}
