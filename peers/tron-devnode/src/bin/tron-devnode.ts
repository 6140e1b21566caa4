/**
 * CLI: starts the Tron devnode until SIGINT/SIGTERM. Env: TRON_DEVNODE_HOST, TRON_DEVNODE_PORT,
 * TRON_DEVNODE_BLOCK_INTERVAL_MS, TRON_DEVNODE_SOLID_LAG, TRON_DEVNODE_ENERGY_FACTOR, TRON_DEVNODE_ENERGY_COSTS (the package README).
 */
import { startTronDevnode } from "../index.ts";
import type { EnergyCosts } from "../index.ts";

function numberFromEnv(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${text}"`);
  return value;
}

/** TRON_DEVNODE_ENERGY_COSTS (a JSON object of EnergyCosts fields) and TRON_DEVNODE_ENERGY_FACTOR; validated by the ledger. */
function energyFromEnv(): Partial<EnergyCosts> {
  const text = process.env.TRON_DEVNODE_ENERGY_COSTS;
  let costs: Partial<EnergyCosts> = {};
  if (text !== undefined && text !== "") {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error(`TRON_DEVNODE_ENERGY_COSTS must be a JSON object, got "${text}"`);
    costs = parsed as Partial<EnergyCosts>;
  }
  const factor = numberFromEnv("TRON_DEVNODE_ENERGY_FACTOR");
  return factor === undefined ? costs : { ...costs, energyFactor: factor };
}

const devnode = await startTronDevnode({
  host: process.env.TRON_DEVNODE_HOST || undefined,
  port: numberFromEnv("TRON_DEVNODE_PORT"),
  blockIntervalMs: numberFromEnv("TRON_DEVNODE_BLOCK_INTERVAL_MS"),
  solidLag: numberFromEnv("TRON_DEVNODE_SOLID_LAG"),
  energy: energyFromEnv(),
});

console.log(
  `tron-devnode listening on ${devnode.url} (java-tron HTTP API, /walletsolidity, /jsonrpc; POST /admin/produceblock, /admin/reorg)`,
);
console.log("dev accounts (DEV ONLY keys):");
for (const account of devnode.genesis.accounts) console.log(`  ${account.base58}  ${account.privateKey}`);
for (const token of devnode.genesis.trc20) console.log(`TRC-20 ${token.symbol} (${token.decimals} decimals) at ${token.base58}`);
console.log(`Forwarder (forward/tryForward/forwardAndRevert: internal transactions) at ${devnode.genesis.forwarder.base58}`);

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
