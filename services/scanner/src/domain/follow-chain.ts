/**
 * One chain's follower: walks from its cursor to the node's tip and back on reorgs.
 *
 * Invariants: every processed block in the kept window links to its parent by hash; a block's
 * matches are recorded, then published, before the cursor moves past it, and `block.processed`
 * after; event ids are deterministic, so a block processed again (a crash between publishing and
 * storing the cursor, a lease handed over) publishes nothing twice, and every transfer published
 * is on record, so it can be reverted even when the crash came before its block was stored. The
 * watch index is refreshed before each batch of blocks, so a webhook watches from the next block
 * processed after it exists.
 *
 * Only a hash the node positively reports at a height, different from ours, is a fork. A node
 * without the block (its tip below the cursor: a failover to a lagging URL, a load-balanced
 * provider whose backends differ) is waited for, never taken for a reorg; one that stays behind
 * longer than `nodeBehindFailoverMs` is failed over like an unhealthy one. A transfer reverted and
 * then back in the same block (A→B→A) is notified again under its next generation.
 *
 * The watch list is never older than the block (issue 16 item 7): a block is matched only once the
 * projection holds a registry watermark no more than `watchGraceMs` older than the block's moment
 * (its time, or when it was fetched if that is earlier); otherwise the follower waits for the feed
 * instead of matching against a stale list. Addresses that reach the projection late anyway (within
 * the grace, or issued by an extended key while the bus was down) come with a rescan: the kept blocks
 * matched since they became watched are matched again against them alone, so they are notified once.
 * "Since" is the registry's clock and "matched" the scanner's: they are assumed synchronised (NTP);
 * no allowance is added, because a block matched before a webhook existed must not be replayed.
 *
 * Each block is a span ("scanner block"): its fetch from the node, its matching and the events
 * published for it run inside, so the node call and every `transfer.matched` message (whose
 * headers carry the context) descend from it, and a delivery continues the block's trace.
 */
import { context, SpanStatusCode, trace, type Context } from "@opentelemetry/api";
import { backoffDelayMs, createWakeableSleep, type BackoffSchedule, type WakeableSleep } from "@chaingate/backoff";
import { CHAIN_SETTINGS } from "./chain-settings.ts";
import type {
  ChainFollowerSpec,
  Cursor,
  EventSink,
  FollowerLogger,
  FollowerStore,
  ProcessedBlock,
  RescanJob,
  StoredMatch,
  WatchFeed,
} from "./ports.ts";
import { BlockNotReadyError, NodeBehindError, ReorgTooDeepError } from "./scanner-errors.ts";
import { transferEvent, transferEventId, transferKey, type TransferEvent } from "./transfer-event.ts";
import type { BlockHeader } from "./transfer.ts";
import { WatchIndex } from "./watch-index.ts";

/** Blocks fetched at once while catching up (processed in order). */
export const DEFAULT_FETCH_CONCURRENCY = 8;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** How much older than a block's moment the registry watermark may be before the follower waits for the feed. */
export const DEFAULT_WATCH_GRACE_MS = 5_000;
/** A node behind the processed cursor this long is failed over (when the chain has another URL). */
export const DEFAULT_NODE_BEHIND_FAILOVER_MS = 30_000;
/**
 * After an announcement whose pass found nothing new (the node read over HTTP behind the one that
 * announced: a load-balanced provider, a WebSocket backend ahead of the HTTP one), the tip is asked
 * again after these waits before the follower falls back to its poll interval.
 */
export const RECHECK_AFTER_ANNOUNCEMENT_MS = [25, 50, 100, 200, 400] as const;
/** After a node or database failure the next attempt waits 0.5 s, doubling up to 15 s. */
const RETRY: BackoffSchedule = { firstMs: 500, maxMs: 15_000 };

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
  /**
   * Ends the poll sleep early when the node announces a block (ZMQ, WebSocket, `-blocknotify`).
   * An announcement carries no authority: the pass it starts is an ordinary one (tip, parent
   * hashes, lag), and a lost or silent channel leaves the timed poll as it was. Without it the
   * follower only polls.
   */
  wake?: WakeableSleep;
  /** Blocks kept for reorgs; default the chain's documented window. */
  reorgWindow?: number;
  /** Where a follower without a cursor starts; default the node's tip (no history is replayed). */
  startHeight?: number;
  /** How long the node may stay behind the processed cursor before it is failed over. */
  nodeBehindFailoverMs?: number;
  /** Called when the node falls behind the cursor (how many blocks), and with null once it has caught up (metrics). */
  onNodeBehind?: (blocks: number | null) => void;
  /** How much older than a block's moment the registry watermark may be (see the module comment). */
  watchGraceMs?: number;
  /** Called while blocks wait for the watch feed, with how far the watermark is behind (ms; Infinity: none yet), and with null once it is current (metrics, readiness). */
  onWatchFeedBehind?: (behindMs: number | null) => void;
  /** Called after each block is committed, with the node's tip height seen then (metrics, tests). */
  onBlock?: (block: BlockHeader, matched: number, tipHeight: number) => void;
  /** Called after a reorg was rewound: how many processed blocks left the best chain, how many notified transfers were reverted. */
  onReorg?: (reorg: { forkHeight: number; depth: number; reverted: number }) => void;
}

/** Runs until `signal` aborts; failures of the node or the database are logged and retried. */
export async function followChain<Block>(options: FollowChainOptions<Block>): Promise<void> {
  const { chain, signal, logger, store } = options;
  const coin = chain.coin;
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const state: FollowState = { unsettled: true, behindSince: undefined, waitingForFeed: false };
  let failures = 0;
  const wake = options.wake ?? createWakeableSleep();
  /** Rechecks done since the last announcement; all done (none due) until one arrives. */
  let rechecks: number = RECHECK_AFTER_ANNOUNCEMENT_MS.length;
  await store.begin(coin);
  while (!signal.aborted) {
    try {
      // After a start or a failure, transfers may have been published for blocks never stored.
      if (state.unsettled) await settlePublishedAboveCursor(options);
      state.unsettled = false;
      const idle = await step(options, state);
      failures = 0;
      if (!idle) rechecks = RECHECK_AFTER_ANNOUNCEMENT_MS.length;
      else if (
        await wake.sleep(rechecks < RECHECK_AFTER_ANNOUNCEMENT_MS.length ? RECHECK_AFTER_ANNOUNCEMENT_MS[rechecks++]! : pollMs, signal)
      )
        rechecks = 0;
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ReorgTooDeepError) throw error;
      // A node without the block, or without all of it yet: wait a poll, as for a node behind
      // (nothing was published in that pass), instead of backing off like after a failure.
      if (error instanceof NodeBehindError || error instanceof BlockNotReadyError) {
        nodeBehind(options, state, Number(error.details?.height), null, error.message);
        await wake.sleep(pollMs, signal);
        continue;
      }
      state.unsettled = true;
      failures++;
      const delay = backoffDelayMs(failures, RETRY);
      logger.warn({ err: error, coin, retry_in_ms: delay }, "following failed; retrying");
      await sleep(delay, signal);
    }
  }
}

/** What the follower remembers between passes. */
interface FollowState {
  /** Whether published matches above the cursor may exist (after a start or a failed pass). */
  unsettled: boolean;
  /** Since when the node has been behind the cursor (epoch ms); undefined while it is not. */
  behindSince: number | undefined;
  /** Whether blocks are waiting for the watch feed. */
  waitingForFeed: boolean;
}

/**
 * The node lacks a block at or below the cursor: wait for it (a log line when it starts, a metric),
 * and fail it over once it has been behind longer than the setting.
 */
function nodeBehind<Block>(
  options: FollowChainOptions<Block>,
  state: FollowState,
  neededHeight: number,
  tip: number | null,
  reason = "no block there yet",
): void {
  const { chain, logger } = options;
  const now = Date.now();
  const blocks = tip === null ? 1 : Math.max(1, neededHeight - tip);
  options.onNodeBehind?.(blocks);
  if (state.behindSince === undefined) {
    state.behindSince = now;
    logger.warn(
      { coin: chain.coin, needed_height: neededHeight, node_tip: tip, reason },
      "the node is behind: waiting for it (a missing or incomplete block is not a reorg)",
    );
    return;
  }
  const limit = options.nodeBehindFailoverMs ?? DEFAULT_NODE_BEHIND_FAILOVER_MS;
  if (now - state.behindSince >= limit && chain.demoteNode) {
    const url = chain.demoteNode(`behind the processed block ${neededHeight} for ${now - state.behindSince} ms`);
    logger.warn(
      { coin: chain.coin, needed_height: neededHeight, node_tip: tip, url, behind_ms: now - state.behindSince },
      "the node stayed behind: failed over to the next URL",
    );
    state.behindSince = now;
  }
}

function nodeCaughtUp<Block>(options: FollowChainOptions<Block>, state: FollowState): void {
  if (state.behindSince === undefined) return;
  options.logger.info({ coin: options.chain.coin, behind_ms: Date.now() - state.behindSince }, "the node caught up");
  state.behindSince = undefined;
  options.onNodeBehind?.(null);
}

/** One pass: process what the node has beyond the cursor. Returns true when there was nothing to do. */
async function step<Block>(options: FollowChainOptions<Block>, state: FollowState): Promise<boolean> {
  const { chain, store, signal } = options;
  const coin = chain.coin;
  // When the index was brought up to date: blocks matched with it are stored as matched then.
  const refreshedAtMs = Date.now();
  const feed = await options.watchFeed.refresh(options.index);
  let cursor = await store.cursor(coin);
  const rescans = feed.rescans.filter((job) => job.coin === coin);
  if (rescans.length) await rescanLateAddresses(options, rescans, cursor);
  const tip = await chain.source.tipHeight();
  const start = cursor ? cursor.height + 1 : Math.min(options.startHeight ?? tip, tip);
  if (start > tip) {
    if (!cursor) return true;
    // The node may have switched to a branch no longer than ours, or be behind: compare the cursor itself.
    const nodeHash = await chain.source.hashAt(cursor.height);
    if (nodeHash === null) {
      nodeBehind(options, state, cursor.height, tip);
      return true;
    }
    nodeCaughtUp(options, state);
    if (nodeHash !== cursor.hash) {
      await rewind(options, cursor);
      return false;
    }
    return true;
  }
  nodeCaughtUp(options, state);
  const end = Math.min(tip, start + (options.fetchConcurrency ?? DEFAULT_FETCH_CONCURRENCY) - 1);
  const heights = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  const spans = heights.map((height) =>
    tracer.startSpan("scanner block", { attributes: { "chaingate.chain": coin.toLowerCase(), "chaingate.block.height": height } }),
  );
  const contexts = spans.map((span) => trace.setSpan(context.active(), span));
  try {
    const blocks = await Promise.all(heights.map((height, i) => context.with(contexts[i]!, () => chain.source.blockAt(height))));
    // The node reported a tip it has no block for (a load-balanced backend behind another): wait.
    if (blocks[0] === null) {
      nodeBehind(options, state, start, null);
      return true;
    }
    const fetchedAtMs = Date.now();
    const batch = createBatch(refreshedAtMs);
    for (const [i, block] of blocks.entries()) {
      if (signal.aborted || block === null) break;
      const header = chain.header(block);
      if (cursor && (header.parentHash !== cursor.hash || header.height !== cursor.height + 1)) {
        await commitBatch(options, batch, tip);
        options.logger.warn({ coin, height: header.height, parent_hash: header.parentHash, cursor }, "parent hash differs: reorg");
        await rewind(options, cursor);
        return false;
      }
      const behindMs = watchListBehind(
        feed.watermarkMs,
        Math.min(header.timeMs, fetchedAtMs),
        options.watchGraceMs ?? DEFAULT_WATCH_GRACE_MS,
      );
      if (behindMs > 0) {
        await commitBatch(options, batch, tip);
        waitForWatchFeed(options, state, header, behindMs, feed.watermarkMs);
        return true;
      }
      await context.with(contexts[i]!, () => matchBlock(options, batch, block, header, contexts[i]!));
      spans[i]!.setAttributes({ "chaingate.block.hash": header.hash, "chaingate.block.matched": batch.matchedPerBlock.at(-1) ?? 0 });
      cursor = { height: header.height, hash: header.hash };
    }
    await commitBatch(options, batch, tip);
    watchFeedCurrent(options, state);
    return false;
  } catch (error) {
    for (const span of spans)
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
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
  /** When the index these blocks are matched with was refreshed. */
  matchedAtMs: number;
  headers: BlockHeader[];
  /** Each header's block span context: its events are published inside it. */
  contexts: Context[];
  stored: StoredMatch[];
  events: Array<{ event: TransferEvent; context: Context }>;
  matchedPerBlock: number[];
  /** Earlier pending matches published in this batch, with their depth. */
  publishedNow: Map<string, number>;
}

function createBatch(matchedAtMs: number): Batch {
  return { matchedAtMs, headers: [], contexts: [], stored: [], events: [], matchedPerBlock: [], publishedNow: new Map() };
}

async function matchBlock<Block>(
  options: FollowChainOptions<Block>,
  batch: Batch,
  block: Block,
  header: BlockHeader,
  blockContext: Context,
): Promise<void> {
  const { chain, store } = options;
  const matches = chain.match(block, options.index);
  let matched = 0;
  // Pending matches of this batch's earlier blocks (not stored yet) that this block makes deep enough.
  for (const entry of batch.stored) {
    if (entry.publishedConfirmations === null && header.height - entry.height + 1 >= entry.match.confirmations) {
      entry.publishedConfirmations = header.height - entry.height + 1;
      batch.events.push({
        event: transferEvent(
          "transfer",
          entry.match,
          { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs },
          entry.publishedConfirmations,
          entry.generation,
        ),
        context: blockContext,
      });
      matched++;
    }
  }
  for (const entry of await store.pendingDue(chain.coin, header.height)) {
    if (batch.publishedNow.has(entry.id)) continue;
    const depth = header.height - entry.height + 1;
    batch.publishedNow.set(entry.id, depth);
    batch.events.push({
      event: transferEvent(
        "transfer",
        entry.match,
        { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs },
        depth,
        entry.generation,
      ),
      context: blockContext,
    });
    matched++;
  }
  const generations = matches.length
    ? await store.generations(
        chain.coin,
        matches.map((match) => transferKey(match)),
      )
    : undefined;
  for (const match of matches) {
    const immediate = match.confirmations <= 1;
    const generation = generations?.get(transferKey(match)) ?? 0;
    batch.stored.push({
      id: transferEventId("transfer", match, header.hash, generation),
      match,
      height: header.height,
      blockHash: header.hash,
      timeMs: header.timeMs,
      publishedConfirmations: immediate ? 1 : null,
      generation,
    });
    if (immediate) {
      batch.events.push({ event: transferEvent("transfer", match, header, 1, generation), context: blockContext });
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
  const publishedNow = [...batch.publishedNow].map(([id, confirmations]) => ({ id, confirmations }));
  if (batch.events.length) {
    await store.recordPublishing(
      coin,
      batch.stored.filter((entry) => entry.publishedConfirmations !== null),
      publishedNow,
    );
    await Promise.all(
      batch.events.map(({ event, context: blockContext }) => context.with(blockContext, () => sink.publishTransfer(event))),
    );
  }
  const window = options.reorgWindow ?? CHAIN_SETTINGS[coin].reorgWindow;
  const last = batch.headers[batch.headers.length - 1]!;
  await store.commitBlocks(
    coin,
    batch.headers.map((header): ProcessedBlock => ({ ...header, matchedAtMs: batch.matchedAtMs })),
    batch.stored,
    publishedNow,
    last.height - window,
  );
  await Promise.all(
    batch.headers.map((header, i) =>
      context.with(batch.contexts[i]!, () =>
        sink.publishBlock({
          coin,
          height: header.height,
          hash: header.hash,
          parent_hash: header.parentHash,
          time: new Date(header.timeMs).toISOString(),
          tx_count: header.txCount,
          matched_count: batch.matchedPerBlock[i]!,
          lag_blocks: Math.max(0, tip - header.height),
        }),
      ),
    ),
  );
  batch.headers.forEach((header, i) => options.onBlock?.(header, batch.matchedPerBlock[i]!, tip));
}

/**
 * How far (ms) the watch list is behind what matching a block of this moment needs: > 0 while the
 * newest watermark held is older than the moment less the grace (Infinity before any watermark).
 */
export function watchListBehind(watermarkMs: number | undefined, momentMs: number, graceMs: number): number {
  if (watermarkMs === undefined) return Number.POSITIVE_INFINITY;
  return momentMs - graceMs - watermarkMs;
}

function waitForWatchFeed<Block>(
  options: FollowChainOptions<Block>,
  state: FollowState,
  header: BlockHeader,
  behindMs: number,
  watermarkMs: number | undefined,
): void {
  options.onWatchFeedBehind?.(behindMs);
  if (state.waitingForFeed) return;
  state.waitingForFeed = true;
  options.logger.warn(
    {
      coin: options.chain.coin,
      height: header.height,
      block_time: new Date(header.timeMs).toISOString(),
      watermark: watermarkMs === undefined ? null : new Date(watermarkMs).toISOString(),
    },
    watermarkMs === undefined
      ? "no registry watermark yet: blocks wait for the watch feed (is the delivery service running, and recent enough to publish webhook.watermark?)"
      : "the watch feed is behind this block: waiting for the registry's changes before matching it",
  );
}

function watchFeedCurrent<Block>(options: FollowChainOptions<Block>, state: FollowState): void {
  if (!state.waitingForFeed) return;
  state.waitingForFeed = false;
  options.onWatchFeedBehind?.(null);
  options.logger.info({ coin: options.chain.coin }, "the watch feed caught up: matching again");
}

/**
 * Matches addresses that became watched after kept blocks were matched without them: each such
 * block (matched since the addresses became watched, still on the kept chain) is fetched again and
 * matched against those addresses alone; what is deep enough is published now, the rest waits for
 * its depth like any match. Ids are the usual deterministic ones, so a block that did have the
 * address publishes nothing twice.
 */
async function rescanLateAddresses<Block>(
  options: FollowChainOptions<Block>,
  jobs: readonly RescanJob[],
  cursor: Cursor | undefined,
): Promise<void> {
  const { chain, store, sink, index, logger } = options;
  const coin = chain.coin;
  // The kept blocks any job may need, read once; each block fetched at most once.
  const earliest = Math.min(...jobs.map((job) => job.sinceMs));
  const kept = cursor ? (await store.blocksMatchedSince(coin, earliest)).filter((block) => block.height <= cursor.height) : [];
  const fetched = new Map<number, { block: Block; header: BlockHeader } | undefined>();
  async function keptBlock(height: number, hash: string) {
    if (!fetched.has(height)) {
      const block = await chain.source.blockAt(height);
      if (block === null) throw new NodeBehindError(coin, height);
      const header = chain.header(block);
      // No longer on the node's chain: the follower's rewind deals with that block.
      fetched.set(height, header.hash === hash ? { block, header } : undefined);
    }
    return fetched.get(height);
  }
  const stored: StoredMatch[] = [];
  const events: TransferEvent[] = [];
  for (const job of jobs) {
    const settings = index.settings(job.webhookId);
    const blocks = kept.filter((block) => block.matchedAtMs >= job.sinceMs);
    if (!settings || blocks.length === 0) continue;
    const addresses =
      job.addresses === null
        ? index.listedAddresses(job.webhookId)
        : job.addresses.filter((address) => index.watches(job.webhookId, address));
    if (addresses.length === 0) continue;
    const only = new WatchIndex();
    only.apply({
      webhookId: job.webhookId,
      coin,
      addresses,
      isActive: true,
      deleted: false,
      version: 1,
      confirmations: settings.confirmations,
      includeTokens: settings.includeTokens,
    });
    let matched = 0;
    for (const { height, hash } of blocks) {
      const found = await keptBlock(height, hash);
      if (!found) continue;
      const matches = chain.match(found.block, only);
      if (matches.length === 0) continue;
      const generations = await store.generations(
        coin,
        matches.map((match) => transferKey(match)),
      );
      const depth = cursor!.height - height + 1;
      for (const match of matches) {
        const generation = generations.get(transferKey(match)) ?? 0;
        const published = depth >= match.confirmations ? depth : null;
        stored.push({
          id: transferEventId("transfer", match, hash, generation),
          match,
          height,
          blockHash: hash,
          timeMs: found.header.timeMs,
          publishedConfirmations: published,
          generation,
        });
        if (published !== null) events.push(transferEvent("transfer", match, found.header, published, generation));
        matched++;
      }
    }
    logger.info(
      {
        coin,
        webhook_id: job.webhookId,
        addresses: addresses.length,
        blocks: blocks.length,
        matched,
        since: new Date(job.sinceMs).toISOString(),
      },
      "rescanned kept blocks for addresses that became watched late",
    );
  }
  if (stored.length) {
    await store.recordPublishing(coin, stored, []);
    await Promise.all(events.map((event) => sink.publishTransfer(event)));
  }
  await options.watchFeed.finishRescans(jobs.map((job) => job.id));
}

/** Publishes the "reverted" event of each published match (same generation as its "transfer"). */
async function publishReverts(sink: EventSink, reverted: readonly StoredMatch[]): Promise<void> {
  await Promise.all(
    reverted.map((entry) =>
      sink.publishTransfer(
        transferEvent(
          "reverted",
          entry.match,
          { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs },
          entry.publishedConfirmations ?? 1,
          entry.generation,
        ),
      ),
    ),
  );
}

/**
 * Transfers published for blocks above the cursor were published by a pass that failed (or a
 * process that died) before storing their blocks. Those whose block the node reports at its
 * height stay (processing it again publishes the same ids); those whose height now holds another
 * block are reverted. A node that lacks the height is waited for.
 */
async function settlePublishedAboveCursor<Block>(options: FollowChainOptions<Block>): Promise<void> {
  const { chain, store, sink, logger } = options;
  const coin = chain.coin;
  const cursor = await store.cursor(coin);
  const above = await store.publishedAbove(coin, cursor?.height ?? -1);
  if (above.length === 0) return;
  const nodeHashes = new Map<number, string>();
  for (const height of new Set(above.map((entry) => entry.height))) {
    const hash = await chain.source.hashAt(height);
    if (hash === null) throw new NodeBehindError(coin, height);
    nodeHashes.set(height, hash);
  }
  const orphaned = above.filter((entry) => nodeHashes.get(entry.height) !== entry.blockHash);
  if (orphaned.length === 0) return;
  await publishReverts(sink, orphaned);
  await store.revertMatches(coin, orphaned);
  logger.warn(
    { coin, reverted: orphaned.length, heights: [...new Set(orphaned.map((entry) => entry.height))] },
    "reverted transfers published for blocks that left the chain before they were stored",
  );
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
    const nodeHash = await chain.source.hashAt(height);
    // Only a hash the node reports differs from ours; no block there yet is no fork.
    if (nodeHash === null) throw new NodeBehindError(coin, height);
    if (nodeHash === stored) break;
    height--;
  }
  const reverted = await store.publishedAbove(coin, height);
  await publishReverts(sink, reverted);
  await store.rewindTo(coin, height, reverted);
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
