/**
 * Scanner matching (issue 8, then the address filter in front of the index). A Bitcoin block of
 * 5,000 outputs, a mainnet-size Tron block (2,000 transactions, a third USDT) and an Ethereum block
 * of 200 ether transfers with two internal value frames each, matched against 1,000 and against
 * 1,000,000 watched addresses of their chain: time per block and the ratio (target <= 1.2: the
 * address filter answers nearly every lookup, so matching hardly grows with the index), then the
 * same without the filter (every lookup reaches the map) as the baseline. Memory per watched
 * address (1,000,000 addresses per chain in webhooks of 1,000, after GC), and the filter's share
 * of it. Tron blocks per second through the whole follower, excluding the node fetch (real
 * Postgres and NATS: match, publish, store the cursor, publish block.processed; target >= 200/s).
 * The Ethereum follower with call tracing off, with callTracer and with chaingate's own tracer
 * (ethereum-tracing.ts; target: the own tracer at most 2x, both tracers finding the same transfers).
 * Then ETH alone against ETH, POLYGON and BSC followed at once by one process (evm-chains.ts: blocks
 * per second per chain, RSS per extra chain).
 */
import type { Coin } from "@chaingate/contracts";
import { createTestDatabase } from "@chaingate/testing";
import {
  followChain,
  matchBitcoinBlock,
  matchEthereumBlock,
  matchTronBlock,
  tronBlockHeader,
  WatchIndex,
  type TronBlockData,
} from "@chaingate/scanner";
import { openScannerState } from "@chaingate/scanner/testing";
import { benchFollowerOptions } from "./bench-follower-options.ts";
import { heapUsed } from "../support/heap-used.ts";
import { ethereumTracingThroughput, TARGET_TRACING_COST, type FollowFigures } from "./ethereum-tracing.ts";
import { benchEvmChains } from "./evm-chains.ts";
import { bitcoinAddress, bitcoinBlock, ethereumAddress, ethereumBlock, TRON_TOKENS, tronBlock, tronBody } from "./synthetic-blocks.ts";

const SMALL = 1_000;
const LARGE = 1_000_000;
const ADDRESSES_PER_WEBHOOK = 1_000;
const BITCOIN_OUTPUTS = 5_000;
const TRON_TRANSACTIONS = 2_000;
const ETHEREUM_TRANSACTIONS = 200;
const ETHEREUM_FRAMES_PER_TRANSACTION = 2;
/** One output/transfer in this many pays a watched address. */
const WATCHED_EVERY = 500;
const MATCH_ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const FOLLOWER_BLOCKS = Number(process.env.BENCH_TRON_BLOCKS ?? 600);
const TRON_BODY_POOL = 20;
const TARGET_RATIO = 1.2;
const TARGET_TRON_BLOCKS_PER_SECOND = 200;
const TARGET_BYTES_PER_ADDRESS = 500;
const COINS = ["BTC", "TRX", "ETH"] as const satisfies readonly Coin[];
/** Ether only: the ERC-20 path is not what this measures. */
const NO_ETHEREUM_TOKENS = new Map<string, never>();

type Timing = { ms: number; matches: number };

/** The watched address numbered `i` of a chain, as a webhook lists it. */
const watchedAddress: Record<(typeof COINS)[number], (i: number) => string> = {
  BTC: bitcoinAddress,
  TRX: (i) => `41${tronBody(i)}`,
  ETH: ethereumAddress,
};

/** An index of `count` addresses of each chain in webhooks of ADDRESSES_PER_WEBHOOK. */
function buildIndex(count: number, addressFilter: boolean): WatchIndex {
  const index = new WatchIndex({ addressFilter });
  let id = 1;
  for (const coin of COINS) {
    for (let start = 0; start < count; start += ADDRESSES_PER_WEBHOOK) {
      const addresses = Array.from({ length: Math.min(ADDRESSES_PER_WEBHOOK, count - start) }, (_, i) => watchedAddress[coin](start + i));
      index.apply({ webhookId: id++, coin, addresses, isActive: true, deleted: false, version: 1 });
    }
  }
  return index;
}

/**
 * Median time to match one block against each index, the indexes measured in alternation so all
 * see the same machine load. Each run matches a fresh copy of the block (as parsed from a node's
 * answer), so string hashes are computed as in production, never cached from an earlier run.
 */
function timePerBlock<Block>(block: Block, match: (block: Block, index: WatchIndex) => number, indexes: readonly WatchIndex[]): Timing[] {
  const text = JSON.stringify(block);
  const samples = indexes.map(() => [] as number[]);
  const matches = indexes.map((index) => match(JSON.parse(text) as Block, index));
  for (let i = 0; i < MATCH_ITERATIONS; i++) {
    indexes.forEach((index, which) => {
      const copy = JSON.parse(text) as Block;
      const started = process.hrtime.bigint();
      match(copy, index);
      samples[which]!.push(Number(process.hrtime.bigint() - started) / 1e6);
    });
  }
  return samples.map((times, which) => ({ ms: times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!, matches: matches[which]! }));
}

interface Comparison {
  small: Timing;
  large: Timing;
  ratio: number;
  /** The same pair without the address filter. */
  unfilteredSmall: Timing;
  unfilteredLarge: Timing;
  unfilteredRatio: number;
}

/** Small vs large index, with the address filter and then without (each pair alternating on its own). */
function compare<Block>(
  block: Block,
  match: (block: Block, index: WatchIndex) => number,
  indexes: { small: WatchIndex; large: WatchIndex; unfilteredSmall: WatchIndex; unfilteredLarge: WatchIndex },
): Comparison {
  const [small, large] = timePerBlock(block, match, [indexes.small, indexes.large]) as [Timing, Timing];
  const [unfilteredSmall, unfilteredLarge] = timePerBlock(block, match, [indexes.unfilteredSmall, indexes.unfilteredLarge]) as [
    Timing,
    Timing,
  ];
  return {
    small,
    large,
    ratio: large.ms / small.ms,
    unfilteredSmall,
    unfilteredLarge,
    unfilteredRatio: unfilteredLarge.ms / unfilteredSmall.ms,
  };
}

/** Each chain's block against the two indexes given and against the same two built without the filter (dropped after). */
function compareChains(small: WatchIndex, large: WatchIndex): Record<"btc" | "trx" | "eth", Comparison> {
  const indexes = { small, large, unfilteredSmall: buildIndex(SMALL, false), unfilteredLarge: buildIndex(LARGE, false) };
  return {
    btc: compare(bitcoinBlock(BITCOIN_OUTPUTS, WATCHED_EVERY), (block, index) => matchBitcoinBlock(block, index).length, indexes),
    trx: compare(tronBlock(TRON_TRANSACTIONS, WATCHED_EVERY), (block, index) => matchTronBlock(block, index, TRON_TOKENS).length, indexes),
    eth: compare(
      ethereumBlock(ETHEREUM_TRANSACTIONS, ETHEREUM_FRAMES_PER_TRANSACTION, WATCHED_EVERY),
      (block, index) => matchEthereumBlock(block, index, NO_ETHEREUM_TOKENS).length,
      indexes,
    ),
  };
}

function describeComparison(what: string, c: Comparison): string {
  const large = LARGE.toLocaleString("en");
  return (
    `  ${what}: ${c.small.ms.toFixed(3)} ms vs ${SMALL.toLocaleString("en")} addresses, ${c.large.ms.toFixed(3)} ms vs ${large} ` +
    `(ratio ${c.ratio.toFixed(2)}, target <= ${TARGET_RATIO}; ${c.small.matches}/${c.large.matches} matches); ` +
    `without the filter ${c.unfilteredSmall.ms.toFixed(3)} vs ${c.unfilteredLarge.ms.toFixed(3)} ms (ratio ${c.unfilteredRatio.toFixed(2)})`
  );
}

/** Seconds for a replica that starts empty to load a 1,000,000-address registry projection from Postgres. */
async function projectionLoadSeconds(): Promise<number> {
  const database = await createTestDatabase();
  const state = await openScannerState({
    databaseUrl: database.connectionString,
    natsUrl: process.env.NATS_URL!,
    namespace: `benchproj${Date.now()}`,
  });
  try {
    for (let start = 0, id = 1; start < LARGE; start += ADDRESSES_PER_WEBHOOK, id++) {
      const addresses = Array.from({ length: ADDRESSES_PER_WEBHOOK }, (_, i) => bitcoinAddress(start + i));
      await state.storeFeedMessage({ webhook_id: id, coin: "BTC", bucket_bits: 0, bucket: 0, version: 1, addresses });
      await state.storeFeedMessage({
        webhook_id: id,
        coin: "BTC",
        is_active: true,
        deleted: false,
        version: 1,
        confirmations: 1,
        include_tokens: false,
        address_count: addresses.length,
        bucket_bits: 0,
      });
    }
    const index = new WatchIndex();
    const started = process.hrtime.bigint();
    await state.watchFeed().refresh(index);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (index.size("BTC") !== LARGE) throw new Error(`projection loaded ${index.size("BTC")} addresses, expected ${LARGE}`);
    return seconds;
  } finally {
    await state.close();
    await database.drop();
  }
}

async function tronFollowerThroughput(index: WatchIndex): Promise<number> {
  const database = await createTestDatabase();
  const state = await openScannerState({
    databaseUrl: database.connectionString,
    natsUrl: process.env.NATS_URL!,
    namespace: `benchscan${Date.now()}`,
  });
  try {
    // A pool of distinct block bodies, re-headed per height: 600 mainnet-size blocks held at once
    // would measure the garbage collector, not the follower.
    const bodies = Array.from({ length: TRON_BODY_POOL }, () => tronBlock(TRON_TRANSACTIONS, WATCHED_EVERY));
    const blockId = (height: number) => height.toString(16).padStart(64, "0");
    const blockAt = (height: number): TronBlockData | null => {
      if (height >= FOLLOWER_BLOCKS) return null;
      const body = bodies[height % TRON_BODY_POOL]!;
      return {
        ...body,
        block: {
          ...body.block,
          blockID: blockId(height),
          block_header: { raw_data: { number: height, parentHash: blockId(height - 1), timestamp: 1_700_000_000_000 + height * 3000 } },
        },
      };
    };
    const controller = new AbortController();
    let processed = 0;
    let started = 0n;
    const follower = followChain({
      chain: {
        coin: "TRX",
        source: {
          tipHeight: async () => FOLLOWER_BLOCKS - 1,
          blockAt: async (h) => blockAt(h),
          hashAt: async (h) => (h < FOLLOWER_BLOCKS ? blockId(h) : null),
        },
        header: tronBlockHeader,
        match: (block, watch) => matchTronBlock(block, watch, TRON_TOKENS),
      },
      ...benchFollowerOptions(state, index, controller.signal),
      fetchConcurrency: 50,
      onBlock: () => {
        if (++processed === 50) started = process.hrtime.bigint();
        if (processed === FOLLOWER_BLOCKS) controller.abort();
      },
    });
    await follower;
    return (FOLLOWER_BLOCKS - 50) / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await state.close();
    await database.drop();
  }
}

export async function benchScannerMatching(): Promise<boolean> {
  const small = buildIndex(SMALL, true);
  const before = heapUsed();
  const large = buildIndex(LARGE, true);
  const bytesPerAddress = (heapUsed() - before) / (COINS.length * LARGE);
  const { btc, trx, eth } = compareChains(small, large);
  const tronPerSecond = await tronFollowerThroughput(large);
  const tracing = await ethereumTracingThroughput(large);
  const costOf = (traced: { perSecond: number }) => tracing.untraced.perSecond / traced.perSecond;
  const tracingCost = costOf(tracing.valueTracer);
  const loadSeconds = await projectionLoadSeconds();

  const filterBytes = COINS.map((coin) => large.filterBytes(coin));
  const filterBytesPerAddress = filterBytes.reduce((sum, bytes) => sum + bytes, 0) / (COINS.length * LARGE);
  const checks = {
    btcRatio: btc.ratio <= TARGET_RATIO,
    trxRatio: trx.ratio <= TARGET_RATIO,
    ethRatio: eth.ratio <= TARGET_RATIO,
    tronPerSecond: tronPerSecond >= TARGET_TRON_BLOCKS_PER_SECOND,
    tracingCost: tracingCost <= TARGET_TRACING_COST,
    // Both tracers must find the same transfers, or the cheaper one is cheaper for a wrong reason.
    tracersAgree: tracing.agreement.equal && tracing.agreement.matches > 0,
    memory: bytesPerAddress <= TARGET_BYTES_PER_ADDRESS,
  };
  console.log(
    `scanner matching (median of ${MATCH_ITERATIONS} runs per figure, small and large index alternating, with the address filter, then both without; ${WATCHED_EVERY > 0 ? `1 in ${WATCHED_EVERY}` : "no"} output/transfer watched)`,
  );
  console.log(describeComparison(`Bitcoin block, ${BITCOIN_OUTPUTS} outputs`, btc));
  console.log(describeComparison(`Tron block, ${TRON_TRANSACTIONS} tx (1/3 USDT)`, trx));
  console.log(
    describeComparison(
      `Ethereum block, ${ETHEREUM_TRANSACTIONS} tx with ${ETHEREUM_FRAMES_PER_TRANSACTION} internal value frames each`,
      eth,
    ),
  );
  console.log(
    `  memory: ${bytesPerAddress.toFixed(0)} bytes per watched address (${COINS.length} x ${LARGE.toLocaleString("en")} addresses: ${((bytesPerAddress * COINS.length * LARGE) / 2 ** 20).toFixed(0)} MiB; target <= ${TARGET_BYTES_PER_ADDRESS}), ` +
      `of which the address filter ${filterBytesPerAddress.toFixed(2)} (${COINS.map((coin, i) => `${coin} ${(filterBytes[i]! / 2 ** 20).toFixed(2)} MiB`).join(", ")})`,
  );
  console.log(
    `  Tron follower, excluding fetch (match + publish + Postgres cursor + block.processed): ${tronPerSecond.toFixed(0)} blocks/s (target >= ${TARGET_TRON_BLOCKS_PER_SECOND})`,
  );
  const describeTraced = (name: string, traced: FollowFigures) =>
    `${name} ${traced.perSecond.toFixed(0)} blocks/s, ${costOf(traced).toFixed(2)}x, CPU ${traced.cpuMsPerBlock.toFixed(2)} ms per block`;
  console.log(
    `  Ethereum follower, excluding the node's time, blocks of 200 tx with 1,000 internal value frames: untraced ${tracing.untraced.perSecond.toFixed(0)} blocks/s (CPU ${tracing.untraced.cpuMsPerBlock.toFixed(2)} ms per block); ` +
      `${describeTraced("ETH_TRACE_MODE=js (own tracer)", tracing.valueTracer)} (target <= ${TARGET_TRACING_COST}x); ` +
      `${describeTraced("ETH_TRACE_MODE=debug (callTracer, the default)", tracing.callTracer)}; ` +
      `both tracers ${tracing.agreement.equal ? "agree on" : "DISAGREE on"} ${tracing.agreement.matches} internal transfers to watched addresses`,
  );
  console.log(
    `  start-up of an empty replica: ${LARGE.toLocaleString("en")} watched addresses loaded from the Postgres projection in ${loadSeconds.toFixed(1)} s`,
  );
  for (const [name, ok] of Object.entries(checks)) if (!ok) console.log(`  MISSED: ${name}`);
  const evmChains = await benchEvmChains();
  return Object.values(checks).every(Boolean) && evmChains;
}
