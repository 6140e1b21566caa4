/**
 * The local dev stack: JetStream streams, node peers, and every service as its own process
 * (launched with its package's `start` script), wired together on loopback. Environment variables
 * set on the command pass through to every service. Ctrl-C stops everything.
 *
 * A second stack beside a developer's (a test) moves every port by DEV_PORT_OFFSET, keeps its
 * chain data in DEV_DATA_DIR (default .tmp/dev) and its database and streams apart with its own
 * DATABASE_URL and NATS_NAMESPACE.
 *
 * EVM chains beside Ethereum come from EVM_CHAINS, as an operator adds them: two more Anvils with
 * Polygon's and BNB Chain's chain ids (EXTRA_EVM_CHAINS).
 *
 * Across restarts: litecoind keeps its chain in the data dir; Anvil and the Tron simulator start
 * a fresh chain each time, so the scanner runs with SCANNER_RESET_STALE_CHAINS and follows a new
 * dev chain from its tip (logged) instead of stopping on it; webhooks registered before keep working.
 *
 * Once the gateway is ready it prints a ready-to-use API key of a "dev" account, kept in the data
 * dir (`dev-api-key`, plain text, mode 600: dev only) and created again when it no longer works.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { connectBus } from "@chaingate/bus";
import { ALL_EVENTS } from "@chaingate/contracts";
import {
  deployUsdtLikeToken,
  DEV_LITECOIND_OPTIONS,
  readStartArguments,
  startAnvil,
  startLitecoindRegtest,
  stopChild,
} from "@chaingate/testing";
import { startTronDevnode } from "@chaingate/tron-devnode";
import { buildConsole } from "./build.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const env = {
  DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres",
  NATS_URL: "nats://127.0.0.1:4222",
  ...process.env,
} as Record<string, string>;

/** Added to every port of the stack (default 0). */
const PORT_OFFSET = Number(env.DEV_PORT_OFFSET ?? 0);
/** Internal ports: loopback only; the gateway is the one public edge. */
const PORTS = Object.fromEntries(
  Object.entries({ gateway: 8080, "btc-proxy": 8101, xpub: 8102, delivery: 8103, "trx-proxy": 8104, scanner: 8105, "eth-proxy": 8106 }).map(
    ([name, port]) => [name, port + PORT_OFFSET],
  ),
) as Record<"gateway" | "btc-proxy" | "xpub" | "delivery" | "trx-proxy" | "scanner" | "eth-proxy", number>;
/** The usual Ethereum dev node port (Anvil's and Hardhat's), so wallets and scripts find it where they expect it. */
const ANVIL_PORT = Number(env.ANVIL_PORT ?? 8545 + PORT_OFFSET);
const TRON_DEVNODE_PORT = Number(env.TRON_DEVNODE_PORT ?? 8090 + PORT_OFFSET);
/**
 * Two more EVM chains, each an Anvil with its chain's id, added as an operator adds them
 * (EVM_CHAINS, docs/chains.md): served at /api/v1/polygon and /api/v1/bsc, scanned as Ethereum.
 */
const EXTRA_EVM_CHAINS = [
  { name: "polygon", chainId: 137, port: 8547 + PORT_OFFSET },
  { name: "bsc", chainId: 56, port: 8548 + PORT_OFFSET },
];
const EVM_CHAINS = JSON.stringify(
  EXTRA_EVM_CHAINS.map(({ name, port }) => ({ name, rpc_urls: [`http://127.0.0.1:${port}`], ws_url: `ws://127.0.0.1:${port}` })),
);
const LITECOIND = { ...DEV_LITECOIND_OPTIONS, rpcPort: DEV_LITECOIND_OPTIONS.rpcPort + PORT_OFFSET };

interface ServiceSpec {
  name: string;
  dir: string;
  env: Record<string, string>;
}

/** Coinbase outputs mature after 100 blocks: past this height the dev wallet can spend. */
const MATURE_HEIGHT = 101;
const DEV_DATA = env.DEV_DATA_DIR ?? `${ROOT}.tmp/dev`;
const DEV_KEY_FILE = `${DEV_DATA}/dev-api-key`;
/** Every service starts at once; on a busy machine the gateway's readiness (its dependencies) takes a while. */
const GATEWAY_READY_TIMEOUT_MS = 120_000;

const services: ServiceSpec[] = [
  {
    name: "btc-proxy",
    dir: "services/btc-proxy",
    env: {
      PORT: String(PORTS["btc-proxy"]),
      BTC_RPC_URL: `http://127.0.0.1:${LITECOIND.rpcPort}`,
      BTC_RPC_USER: LITECOIND.rpcUser,
      BTC_RPC_PASSWORD: LITECOIND.rpcPassword,
    },
  },
  {
    name: "xpub",
    dir: "services/xpub",
    // Issued addresses use the regtest prefix (rltc), so the dev chain can pay them.
    env: { PORT: String(PORTS.xpub), BITCOIN_NETWORK: "litecoin-regtest", EVM_CHAINS },
  },
  {
    name: "delivery",
    dir: "services/delivery",
    // Webhook addresses in the dev chain's regtest forms (rltc1…); WEBHOOK_ALLOW_CIDRS passes through
    // from the command (e.g. 127.0.0.1/32 for a local receiver), empty by default.
    // XPUB_URL: addresses a key issued before a webhook named it are read from the xpub service once.
    env: {
      PORT: String(PORTS.delivery),
      BITCOIN_NETWORK: "litecoin-regtest",
      WEBHOOK_ALLOW_CIDRS: env.WEBHOOK_ALLOW_CIDRS ?? "",
      XPUB_URL: `http://127.0.0.1:${PORTS.xpub}`,
      EVM_CHAINS,
    },
  },
  {
    name: "trx-proxy",
    dir: "services/trx-proxy",
    env: { PORT: String(PORTS["trx-proxy"]), TRON_NODE_URL: `http://127.0.0.1:${TRON_DEVNODE_PORT}` },
  },
  {
    name: "eth-proxy",
    dir: "services/eth-proxy",
    env: { PORT: String(PORTS["eth-proxy"]), ETH_RPC_URL: `http://127.0.0.1:${ANVIL_PORT}`, EVM_CHAINS },
  },
  {
    name: "scanner",
    dir: "services/scanner",
    // Follows the three dev chains from their tips: webhooks on regtest, Anvil and the simulator notify.
    env: {
      PORT: String(PORTS.scanner),
      BTC_RPC_URL: `http://127.0.0.1:${LITECOIND.rpcPort}`,
      BTC_RPC_USER: LITECOIND.rpcUser,
      BTC_RPC_PASSWORD: LITECOIND.rpcPassword,
      ETH_RPC_URL: `http://127.0.0.1:${ANVIL_PORT}`,
      // Blocks wake the follower at once: Anvil's newHeads; litecoind's -blocknotify (below).
      ETH_WS_URL: `ws://127.0.0.1:${ANVIL_PORT}`,
      TRON_NODE_URL: `http://127.0.0.1:${TRON_DEVNODE_PORT}`,
      EVM_CHAINS,
      // Dev only: a fresh Anvil or simulator chain is followed from its tip (logged), not refused.
      SCANNER_RESET_STALE_CHAINS: "true",
    },
  },
  {
    name: "gateway",
    dir: "services/gateway",
    env: {
      PORT: env.GATEWAY_PORT ?? String(PORTS.gateway),
      BTC_PROXY_URL: `http://127.0.0.1:${PORTS["btc-proxy"]}`,
      XPUB_URL: `http://127.0.0.1:${PORTS.xpub}`,
      TRX_PROXY_URL: `http://127.0.0.1:${PORTS["trx-proxy"]}`,
      ETH_PROXY_URL: `http://127.0.0.1:${PORTS["eth-proxy"]}`,
      DELIVERY_URL: `http://127.0.0.1:${PORTS.delivery}`,
      EVM_CHAINS,
    },
  },
];

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
let stopping = false;

function startService(spec: ServiceSpec): void {
  const args = readStartArguments(`${ROOT}${spec.dir}`);
  // Variables set on the command pass through; the stack's wiring (ports, service URLs) wins,
  // since one PORT cannot serve every service (the gateway's public port is GATEWAY_PORT).
  // The dev stack sets no INTERNAL_TOKEN (unless given one): its services are told that is intended.
  const serviceEnv: Record<string, string> = { ALLOW_NO_INTERNAL_TOKEN: "true", ...env, ...spec.env, OTEL_SERVICE_NAME: spec.name };
  const child = spawn(process.execPath, args, { cwd: `${ROOT}${spec.dir}`, env: serviceEnv, stdio: ["ignore", "inherit", "inherit"] });
  child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${spec.name} exited (${signal ?? code}); stopping the stack`);
    void stopAll(1);
  });
  children.push(child);
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map((child) => stopChild(child)));
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => console.error(error));
  process.exit(exitCode);
}

const bus = await connectBus({
  url: env.NATS_URL!,
  name: "dev-stack",
  logger: { info: () => {}, warn: console.error, error: console.error },
  ...(env.NATS_NAMESPACE ? { namespace: env.NATS_NAMESPACE } : {}),
});
await bus.ensureStreams(ALL_EVENTS);
await bus.close();
console.log(`JetStream streams ready at ${env.NATS_URL}`);

// Bitcoin: litecoind -regtest (Bitcoin Core 0.21's JSON-RPC), chain and wallet kept across runs.
// The dev stack sets no INTERNAL_TOKEN: the announcement needs no header (docs/design/scanner.md, Block announcements).
const blocknotify = `-blocknotify=curl -fsS -m 5 -X POST http://127.0.0.1:${PORTS.scanner}/internal/chains/btc/block-announced`;
const litecoind = await startLitecoindRegtest({ ...LITECOIND, datadir: `${DEV_DATA}/litecoind`, extraArgs: [blocknotify] });
cleanups.push(() => litecoind.stop());
const height = await litecoind.rpc<number>("getblockcount");
if (height < MATURE_HEIGHT) await litecoind.mine(MATURE_HEIGHT - height);

// Tron: the project's own java-tron-compatible simulator, a block every 3 s.
const tron = await startTronDevnode({ port: TRON_DEVNODE_PORT });
cleanups.push(() => tron.close());

// Ethereum: Anvil, a fresh in-memory chain on every start (automine: a block per transaction), with
// the call traces the scanner reads internal transfers from (ETH_TRACE_MODE's default).
const anvil = await startAnvil({ port: ANVIL_PORT });
cleanups.push(() => anvil.stop());
// A USDT-like ERC-20 (account 0 holds the supply): the scanner whitelists it, so ETH webhooks with
// include_tokens are notified of its transfers. First transaction of a fresh chain: same address every start.
const usdt = await deployUsdtLikeToken(anvil);
services.find((spec) => spec.name === "scanner")!.env.ETH_TOKENS = JSON.stringify([
  { contract: usdt.address, symbol: "USDT", decimals: usdt.decimals },
]);
// Polygon and BNB Chain stand-ins: fresh Anvils with those chains' ids (checked by the eth-proxy and the scanner).
const extraChains = await Promise.all(EXTRA_EVM_CHAINS.map(({ chainId, port }) => startAnvil({ port, chainId })));
for (const chain of extraChains) cleanups.push(() => chain.stop());

// The web console the gateway serves at /console: built into this stack's data dir (a second stack
// beside a developer's builds its own copy).
const consoleDir = `${DEV_DATA}/console`;
buildConsole(consoleDir);
services.find((spec) => spec.name === "gateway")!.env.CONSOLE_DIR = consoleDir;

for (const spec of services) startService(spec);

const gatewayUrl = `http://127.0.0.1:${env.GATEWAY_PORT ?? PORTS.gateway}`;
const devKey = await ensureDevKey();

console.log(`
chaingate dev stack
  gateway (public)     http://127.0.0.1:${env.GATEWAY_PORT ?? PORTS.gateway}   console: /console   API reference: /docs   OpenAPI: /api/v1/openapi.json
  Bitcoin regtest RPC  http://127.0.0.1:${LITECOIND.rpcPort}  user ${LITECOIND.rpcUser} password ${LITECOIND.rpcPassword} (litecoind; wallet "${litecoind.walletName}", mine with generatetoaddress)
  Ethereum (Anvil)     ${anvil.url}  chain id ${anvil.chainId}, fresh chain each start (the scanner follows it from its tip), 20 funded dev accounts (mnemonic "test test … junk"; docs/dev-chains.md)
                       USDT-like ERC-20 ${usdt.address} (6 decimals, supply held by account 0; the scanner's ETH_TOKENS)
  More EVM chains      ${EXTRA_EVM_CHAINS.map(({ name, chainId }, i) => `${name}: ${extraChains[i]!.url} (chain id ${chainId}, /api/v1/${name}, coin ${name.toUpperCase()})`).join("; ")}; EVM_CHAINS, docs/chains.md
  Tron node (sim)      ${tron.url}  (java-tron HTTP API, TronWeb-compatible; fresh chain each start; dev accounts in docs/dev-chains.md)
  Postgres             ${env.DATABASE_URL}
  NATS                 ${env.NATS_URL}
${
  devKey
    ? `API key (dev)         ${devKey}   (kept in ${DEV_KEY_FILE})
  try it:              curl -H "X-API-Key: ${devKey}" ${gatewayUrl}/api/v1/btc/health`
    : "API key (dev)         none: the gateway did not become ready (see its log above)"
}
  console:             ${gatewayUrl}/console
More accounts and keys: bash scripts/pnpm.sh --silent admin accounts create --name me; bash scripts/pnpm.sh --silent admin keys create --account <id>
Ctrl-C stops everything.
`);

process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

/** The dev account's key: the kept one while the gateway accepts it, else a new account and key (the operator CLI). */
async function ensureDevKey(): Promise<string | undefined> {
  const deadline = Date.now() + GATEWAY_READY_TIMEOUT_MS;
  while (
    (await fetch(`${gatewayUrl}/readyz`).then(
      (answer) => answer.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > deadline || stopping) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const kept = existsSync(DEV_KEY_FILE) ? readFileSync(DEV_KEY_FILE, "utf8").trim() : "";
  if (kept && (await fetch(`${gatewayUrl}/api/v1/keys`, { headers: { "x-api-key": kept } })).status !== 401) return kept;
  const admin = (...args: string[]) =>
    execFileSync(process.execPath, ["services/gateway/src/admin/cli.ts", ...args], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    }).trim();
  const account = admin("accounts", "create", "--name", "dev");
  const key = admin("keys", "create", "--account", account, "--name", "dev stack").split("\n").at(-1)!;
  mkdirSync(DEV_DATA, { recursive: true });
  writeFileSync(DEV_KEY_FILE, `${key}\n`, { mode: 0o600 });
  return key;
}
