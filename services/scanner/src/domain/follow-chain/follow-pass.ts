import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { createBatch } from "./block-batch.ts";
import { commitBatch } from "./commit-batch.ts";
import { DEFAULT_FETCH_CONCURRENCY, DEFAULT_WATCH_GRACE_MS, type FollowChainOptions } from "./follow-chain-options.ts";
import type { FollowState } from "./follow-state.ts";
import { matchBlock } from "./match-block.ts";
import { nodeBehind, nodeCaughtUp } from "./node-behind.ts";
import { rescanLateAddresses } from "./rescan-late-addresses.ts";
import { rewind } from "./rewind.ts";
import { waitForWatchFeed, watchFeedCurrent, watchListBehind } from "./watch-feed-wait.ts";

const tracer = trace.getTracer("@chaingate/scanner");

/** One pass: process what the node has beyond the cursor. Returns true when there was nothing to do. */
export async function followPass<Block>(options: FollowChainOptions<Block>, state: FollowState): Promise<boolean> {
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
