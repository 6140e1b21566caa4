/** CLI: starts the Tron devnode (env TRON_DEVNODE_HOST, TRON_DEVNODE_PORT, TRON_DEVNODE_BLOCK_INTERVAL_MS) until SIGINT/SIGTERM. */
import { startTronDevnode } from "../index.ts";

function numberFromEnv(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${text}"`);
  return value;
}

const devnode = await startTronDevnode({
  host: process.env.TRON_DEVNODE_HOST || undefined,
  port: numberFromEnv("TRON_DEVNODE_PORT"),
  blockIntervalMs: numberFromEnv("TRON_DEVNODE_BLOCK_INTERVAL_MS"),
});

console.log(`tron-devnode listening on ${devnode.url} (java-tron HTTP API, /walletsolidity, /jsonrpc; POST /admin/produceblock)`);
console.log("dev accounts (DEV ONLY keys):");
for (const account of devnode.genesis.accounts) console.log(`  ${account.base58}  ${account.privateKey}`);
for (const token of devnode.genesis.trc20) console.log(`TRC-20 ${token.symbol} (${token.decimals} decimals) at ${token.base58}`);

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  console.log(`tron-devnode: ${signal} received, stopping`);
  devnode.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
