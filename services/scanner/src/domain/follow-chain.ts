/**
 * One chain's follower: walks from its cursor to the node's tip and back on reorgs.
 *
 * Invariants: every processed block in the kept window links to its parent by hash; a block's
 * matches are published before the cursor moves past it, and `block.processed` after; event ids
 * are deterministic, so a block processed again (a crash between publishing and storing the
 * cursor, a lease handed over) publishes nothing twice. The watch index is refreshed before each
 * batch of blocks, so a webhook watches from the next block processed after it exists.
 *
 * Each block is a span ("scanner block"): its fetch from the node, its matching and the events
 * published for it run inside, so the node call and every `transfer.matched` message (whose
 * headers carry the context) descend from it, and a delivery continues the block's trace.
 */
import { context, SpanStatusCode, trace, type Context } from "@opentelemetry/api";
import { CHAIN_SETTINGS } from "./chain-settings.ts";
import type { ChainFollowerSpec, Cursor, EventSink, FollowerLogger, FollowerStore, StoredMatch, WatchFeed } from "./ports.ts";
import { ReorgTooDeepError } from "./scanner-errors.ts";
import { transferEvent, transferEventId, type TransferEvent } from "./transfer-event.ts";
import type { BlockHeader } from "./transfer.ts";
import type { WatchIndex } from "./watch-index.ts";

/** Blocks fetched at once while catching up (processed in order). */
export const DEFAULT_FETCH_CONCURRENCY = 8;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** After a node or database failure the next attempt waits this long, doubling up to the maximum. */
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 15_000;

const tracer = trace.getTracer("@chaingate/scanner");

export interface FollowChainOptions<Block> {
  chain: ChainFollowerSpec<Block>;
  index: WatchIndex;
  watchFeed: WatchFeed;
  store: FollowerStore;
  sink: EventSink;
  logger: FollowerLogger;
  /** Ends the follower (lease lost, shutdown). */
  signal: AbortSignal;
  fetchConcurrency?: number;
  pollIntervalMs?: number;
  /** Blocks kept for reorgs; default the chain's documented window. */
  reorgWindow?: number;
  /** Where a follower without a cursor starts; default the node's tip (no history is replayed). */
  startHeight?: number;
  /** Called after each block is committed, with the node's tip height seen then (metrics, tests). */
  onBlock?: (block: BlockHeader, matched: number, tipHeight: number) => void;
  /** Called after a reorg was rewound: how many processed blocks left the best chain, how many notified transfers were reverted. */
  onReorg?: (reorg: { forkHeight: number; depth: number; reverted: number }) => void;
}

/** Runs until `signal` aborts; failures of the node or the database are logged and retried. */
export async function followChain<Block>(options: FollowChainOptions<Block>): Promise<void> {
  const { chain, signal, logger } = options;
  const coin = chain.coin;
  let failures = 0;
  while (!signal.aborted) {
    try {
      const idle = await step(options);
      failures = 0;
      if (idle) await sleep(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ReorgTooDeepError) throw error;
      failures++;
      const delay = Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.min(failures - 1, 8), MAX_RETRY_DELAY_MS);
      logger.warn({ err: error, coin, retry_in_ms: delay }, "following failed; retrying");
      await sleep(delay, signal);
    }
  }
}

/** One pass: process what the node has beyond the cursor. Returns true when there was nothing to do. */
async function step<Block>(options: FollowChainOptions<Block>): Promise<boolean> {
  const { chain, store, signal } = options;
  const coin = chain.coin;
  let cursor = await store.cursor(coin);
  const tip = await chain.source.tipHeight();
  const start = cursor ? cursor.height + 1 : Math.min(options.startHeight ?? tip, tip);
  if (start > tip) {
    // The node may have switched to a branch no longer than ours: compare the cursor itself.
    if (cursor && (await chain.source.hashAt(cursor.height)) !== cursor.hash) {
      await rewind(options, cursor);
      return false;
    }
    return true;
  }
  const end = Math.min(tip, start + (options.fetchConcurrency ?? DEFAULT_FETCH_CONCURRENCY) - 1);
  const heights = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  const spans = heights.map((height) => tracer.startSpan("scanner block", { attributes: { "chaingate.chain": coin.toLowerCase(), "chaingate.block.height": height } }));
  const contexts = spans.map((span) => trace.setSpan(context.active(), span));
  try {
    const blocks = await Promise.all(heights.map((height, i) => context.with(contexts[i]!, () => chain.source.blockAt(height))));
    await options.watchFeed.refresh(options.index);
    const batch = createBatch();
    for (const [i, block] of blocks.entries()) {
      if (signal.aborted || block === null) break;
      const header = chain.header(block);
      if (cursor && (header.parentHash !== cursor.hash || header.height !== cursor.height + 1)) {
        await commitBatch(options, batch, tip);
        options.logger.warn({ coin, height: header.height, parent_hash: header.parentHash, cursor }, "parent hash differs: reorg");
        await rewind(options, cursor);
        return false;
      }
      await context.with(contexts[i]!, () => matchBlock(options, batch, block, header, contexts[i]!));
      spans[i]!.setAttributes({ "chaingate.block.hash": header.hash, "chaingate.block.matched": batch.matchedPerBlock.at(-1) ?? 0 });
      cursor = { height: header.height, hash: header.hash };
    }
    await commitBatch(options, batch, tip);
    return false;
  } catch (error) {
    for (const span of spans) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}

/**
 * Consecutive blocks processed together: all their matches are published, then all are stored in
 * one transaction (the cursor moves past them), then their `block.processed` events go out. Each
 * block still sees its matches published before the cursor passes it; catching up costs a few
 * round trips per batch instead of per block.
 */
interface Batch {
  headers: BlockHeader[];
  /** Each header's block span context: its events are published inside it. */
  contexts: Context[];
  stored: StoredMatch[];
  events: Array<{ event: TransferEvent; context: Context }>;
  matchedPerBlock: number[];
  /** Earlier pending matches published in this batch, with their depth. */
  publishedNow: Map<string, number>;
}

function createBatch(): Batch {
  return { headers: [], contexts: [], stored: [], events: [], matchedPerBlock: [], publishedNow: new Map() };
}

async function matchBlock<Block>(options: FollowChainOptions<Block>, batch: Batch, block: Block, header: BlockHeader, blockContext: Context): Promise<void> {
  const { chain, store } = options;
  const matches = chain.match(block, options.index);
  let matched = 0;
  // Pending matches of this batch's earlier blocks (not stored yet) that this block makes deep enough.
  for (const entry of batch.stored) {
    if (entry.publishedConfirmations === null && header.height - entry.height + 1 >= entry.match.confirmations) {
      entry.publishedConfirmations = header.height - entry.height + 1;
      batch.events.push({ event: transferEvent("transfer", entry.match, { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs }, entry.publishedConfirmations), context: blockContext });
      matched++;
    }
  }
  for (const entry of await store.pendingDue(chain.coin, header.height)) {
    if (batch.publishedNow.has(entry.id)) continue;
    const depth = header.height - entry.height + 1;
    batch.publishedNow.set(entry.id, depth);
    batch.events.push({ event: transferEvent("transfer", entry.match, { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs }, depth), context: blockContext });
    matched++;
  }
  for (const match of matches) {
    const immediate = match.confirmations <= 1;
    batch.stored.push({ id: transferEventId("transfer", match, header.hash), match, height: header.height, blockHash: header.hash, timeMs: header.timeMs, publishedConfirmations: immediate ? 1 : null });
    if (immediate) {
      batch.events.push({ event: transferEvent("transfer", match, header, 1), context: blockContext });
      matched++;
    }
  }
  batch.headers.push(header);
  batch.contexts.push(blockContext);
  batch.matchedPerBlock.push(matched);
}

async function commitBatch<Block>(options: FollowChainOptions<Block>, batch: Batch, tip: number): Promise<void> {
  if (batch.headers.length === 0) return;
  const { chain, store, sink } = options;
  const coin = chain.coin;
  await Promise.all(batch.events.map(({ event, context: blockContext }) => context.with(blockContext, () => sink.publishTransfer(event))));
  const window = options.reorgWindow ?? CHAIN_SETTINGS[coin].reorgWindow;
  const last = batch.headers[batch.headers.length - 1]!;
  await store.commitBlocks(coin, batch.headers, batch.stored, [...batch.publishedNow].map(([id, confirmations]) => ({ id, confirmations })), last.height - window);
  await Promise.all(
    batch.headers.map((header, i) =>
      context.with(batch.contexts[i]!, () => sink.publishBlock({
        coin,
        height: header.height,
        hash: header.hash,
        parent_hash: header.parentHash,
        time: new Date(header.timeMs).toISOString(),
        tx_count: header.txCount,
        matched_count: batch.matchedPerBlock[i]!,
        lag_blocks: Math.max(0, tip - header.height),
      })),
    ),
  );
  batch.headers.forEach((header, i) => options.onBlock?.(header, batch.matchedPerBlock[i]!, tip));
}

/** Walks back to the newest block the node still has, reverts what was notified above it. */
async function rewind<Block>(options: FollowChainOptions<Block>, cursor: Cursor): Promise<void> {
  const { chain, store, sink, logger } = options;
  const coin = chain.coin;
  const window = options.reorgWindow ?? CHAIN_SETTINGS[coin].reorgWindow;
  let height = cursor.height;
  for (;;) {
    const stored = await store.hashAt(coin, height);
    if (stored === undefined) throw new ReorgTooDeepError(coin, height, window);
    if ((await chain.source.hashAt(height)) === stored) break;
    height--;
  }
  const reverted = await store.publishedAbove(coin, height);
  await Promise.all(
    reverted.map((entry) =>
      sink.publishTransfer(transferEvent("reverted", entry.match, { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs }, entry.publishedConfirmations ?? 1)),
    ),
  );
  await store.rewindTo(coin, height);
  options.onReorg?.({ forkHeight: height, depth: cursor.height - height, reverted: reverted.length });
  logger.warn({ coin, fork_height: height, from_height: cursor.height, reverted: reverted.length }, "reorg: rewound to the fork point");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
