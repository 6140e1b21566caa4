/**
 * One run of the EVM-chains part of `pnpm bench scanner` (evm-chains.ts starts it), in a process
 * of its own started as the scanner is (`node --max-semi-space-size=4`): the chains named by
 * BENCH_EVM_CHAINS_RUN (e.g. `ETH,POLYGON,BSC`) followed at once, from height 0, by the real
 * follower (`followChain`, the Ethereum block source with callTracer, the default
 * ETH_TRACE_MODE, `matchEthereumBlock` with the chain's registry entry), over one Postgres store
 * and one NATS connection, as one scanner process follows its EVM_CHAINS. Each chain has its own
 * stand-in node (pooled-evm-node.ts) answering from the same 16 prepared block bodies
 * (ethereum-tracing.ts), so the fixture is small and the same whatever the number of chains.
 * Prints its figures as one JSON line.
 *
 * What a configured chain needs beside its coin, as the service gives it (follow-leased-chain.ts):
 * its reorg window (`reorgWindow`: the follower's default is only the built-in chains', and
 * without it every commit of a POLYGON block throws and is retried for ever, silently under a
 * silent logger: the earlier attempt's hang), its registry entry for the matcher (without it a
 * POLYGON block is matched against ETH's webhooks, as ETH), and webhooks under its own coin.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Coin } from "@chaingate/contracts";
import {
  createEthereumBlockSource,
  ethereumBlockHeader,
  followChain,
  matchEthereumBlock,
  scannerConfigSchema,
  WatchIndex,
} from "@chaingate/scanner";
import { openScannerState, type ScannerState } from "@chaingate/scanner/testing";
import { createTestDatabase } from "@chaingate/testing";
import { heapUsed } from "../support/heap-used.ts";
import { benchFollowerOptions } from "./bench-follower-options.ts";
import { blockTexts, watchedPayees } from "./ethereum-tracing.ts";
import { pooledEvmNode } from "./pooled-evm-node.ts";
import { ethereumAddress } from "./synthetic-blocks.ts";

export const EVM_CHAINS_BLOCKS = Number(process.env.BENCH_EVM_CHAINS_BLOCKS ?? 200);
/** Distinct block bodies each chain's blocks are made of (pooled-evm-node.ts). */
const BODIES = 16;
/** Blocks of each chain before its timing starts (JIT, pools, first commits). */
export const EVM_CHAINS_WARM_UP_BLOCKS = 20;
/** One internal payment in this many pays a watched address: 2 transfers per block (of 800 payments). */
export const EVM_CHAINS_WATCHED_EVERY = 400;
/** A run whose chains have not all followed every block by then is ended and reported stalled. */
export const EVM_CHAINS_RUN_TIMEOUT_MS = Number(process.env.BENCH_EVM_CHAINS_TIMEOUT_MS ?? 120_000);
const TRACE_MODE = "debug";
const NO_TOKENS = new Map<string, never>();
const MB = 1024 * 1024;

/** callTracer's mode reads these three answers of a block. */
type Bodies = Array<{ block: string; receipts: string; traces: string }>;
type EvmChainEntry = NonNullable<Parameters<typeof matchEthereumBlock>[3]>;

/** One chain of a run, as the parent reads it. */
export interface EvmChainRun {
  coin: Coin;
  /** When each block was committed (performance.now(), ms), in order. */
  blockTimesMs: number[];
  /** Transfers published under this chain's coin with its native currency; those under another currency. */
  transfers: number;
  wrongCurrency: number;
  expectedTransfers: number;
  /** The follower's first warning (a failure it retries), if any. */
  firstWarning: string | null;
}

export interface EvmChainsRun {
  chains: EvmChainRun[];
  /** RSS (MB): before following (fixture built, after GC), the kernel's peak while following (VmHWM, reset before), the mean of samples every 50 ms. */
  rss: { before: number; peak: number; mean: number };
  /** This process's CPU while following (ms), and the wall time from the first follower's start to the last one's end. */
  cpuMs: number;
  /** How busy the main thread was while following (0 to 1): near 1, the followers wait for it. */
  eventLoopUtilization: number;
  wallMs: number;
}

/** Each chain's registry entry, as EVM_CHAINS gives it to the scanner (ETH: the built-in one, the matcher's default). */
function chainEntries(coins: readonly Coin[]): Map<Coin, { entry: EvmChainEntry | undefined; reorgWindow: number }> {
  const configured = coins.filter((coin) => coin !== "ETH");
  const config = scannerConfigSchema.parse({
    DATABASE_URL: process.env.DATABASE_URL,
    NATS_URL: process.env.NATS_URL,
    EVM_CHAINS: JSON.stringify(configured.map((coin) => ({ name: coin.toLowerCase(), rpc_urls: ["http://127.0.0.1:9/"] }))),
  });
  const entries = new Map<Coin, { entry: EvmChainEntry | undefined; reorgWindow: number }>();
  for (const coin of coins) {
    const chain = config.EVM_CHAINS.find(({ entry }) => entry.coin === coin);
    if (coin !== "ETH" && !chain) throw new Error(`EVM_CHAINS gave no entry for ${coin}`);
    entries.set(
      coin,
      chain ? { entry: chain.entry, reorgWindow: chain.entry.reorgWindow } : { entry: undefined, reorgWindow: config.ETH_REORG_WINDOW },
    );
  }
  return entries;
}

const memoryStatus = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;

/** The chains followed at once over one store until each has committed every block (or the run timed out). */
async function followAll(coins: readonly Coin[], bodies: Bodies, state: ScannerState): Promise<EvmChainsRun> {
  const entries = chainEntries(coins);
  const payees = (height: number) => watchedPayees(height % BODIES, EVM_CHAINS_WATCHED_EVERY);
  const watched = new Set(bodies.flatMap((_, body) => payees(body)));
  const index = new WatchIndex();
  coins.forEach((coin, i) =>
    index.apply({ webhookId: i + 1, coin, addresses: [...watched].map(ethereumAddress), isActive: true, deleted: false, version: 1 }),
  );
  let expectedTransfers = 0;
  for (let height = 0; height < EVM_CHAINS_BLOCKS; height++) expectedTransfers += payees(height).length;
  const runs = new Map<Coin, EvmChainRun & { symbol: string }>(
    coins.map((coin) => [
      coin,
      {
        coin,
        symbol: entries.get(coin)!.entry?.native.symbol ?? "ETH",
        blockTimesMs: [],
        transfers: 0,
        wrongCurrency: 0,
        expectedTransfers,
        firstWarning: null,
      },
    ]),
  );
  const sink: ScannerState["sink"] = {
    async publishTransfer(event) {
      const { coin, currency } = event as { coin: Coin; currency?: string };
      const run = runs.get(coin);
      if (run && currency === run.symbol) run.transfers++;
      else if (run) run.wrongCurrency++;
      await state.sink.publishTransfer(event);
    },
    publishBlock: (event) => state.sink.publishBlock(event),
  };
  const controllers = coins.map(() => new AbortController());
  const timeout = setTimeout(() => controllers.forEach((controller) => controller.abort()), EVM_CHAINS_RUN_TIMEOUT_MS);
  heapUsed();
  writeFileSync("/proc/self/clear_refs", "5");
  const before = memoryStatus("VmRSS");
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(process.memoryUsage.rss() / MB), 50);
  const cpuAtStart = process.cpuUsage();
  const loopAtStart = performance.eventLoopUtilization();
  const started = performance.now();
  await Promise.all(
    coins.map((coin, i) => {
      const run = runs.get(coin)!;
      const { entry, reorgWindow } = entries.get(coin)!;
      const warn = (fields: object, message: string) => {
        run.firstWarning ??= `${message}: ${String((fields as { err?: unknown }).err ?? JSON.stringify(fields))}`;
      };
      return followChain({
        chain: {
          coin,
          source: createEthereumBlockSource(pooledEvmNode(bodies, EVM_CHAINS_BLOCKS), { traceMode: TRACE_MODE }),
          header: ethereumBlockHeader,
          match: (block, watch) => matchEthereumBlock(block, watch, NO_TOKENS, entry),
        },
        ...benchFollowerOptions(state, index, controllers[i]!.signal),
        sink,
        logger: { info: () => {}, warn, error: warn },
        reorgWindow,
        onBlock: () => {
          if (run.blockTimesMs.push(performance.now()) === EVM_CHAINS_BLOCKS) controllers[i]!.abort();
        },
      });
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuAtStart);
  const loop = performance.eventLoopUtilization(loopAtStart);
  clearInterval(sampler);
  clearTimeout(timeout);
  return {
    chains: [...runs.values()].map(({ symbol: _symbol, ...run }) => run),
    rss: { before, peak: memoryStatus("VmHWM"), mean: samples.reduce((sum, mb) => sum + mb, 0) / Math.max(1, samples.length) },
    cpuMs: (cpu.user + cpu.system) / 1000,
    eventLoopUtilization: loop.utilization,
    wallMs,
  };
}

async function main(): Promise<void> {
  const coins = (process.env.BENCH_EVM_CHAINS_RUN ?? "ETH").split(",") as Coin[];
  const bodies: Bodies = Array.from({ length: BODIES }, (_, height) => {
    const { block, receipts, traces } = blockTexts(height, EVM_CHAINS_WATCHED_EVERY);
    return { block, receipts, traces };
  });
  const database = await createTestDatabase();
  const state = await openScannerState({
    databaseUrl: database.connectionString,
    natsUrl: process.env.NATS_URL!,
    namespace: `benchevm${coins.length}${Date.now()}`,
  });
  try {
    process.stdout.write(`${JSON.stringify(await followAll(coins, bodies, state))}\n`);
  } finally {
    await state.close();
    await database.drop();
  }
}

// Started as a script (evm-chains.ts imports only its constants and types).
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
