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
import { backoffDelayMs, createWakeableSleep, type BackoffSchedule } from "@chaingate/backoff";
import { BlockNotReadyError, NodeBehindError, ReorgTooDeepError } from "./scanner-errors.ts";
import { DEFAULT_POLL_INTERVAL_MS, reorgWindowOf, type FollowChainOptions } from "./follow-chain/follow-chain-options.ts";
import type { FollowState } from "./follow-chain/follow-state.ts";
import { followPass } from "./follow-chain/follow-pass.ts";
import { nodeBehind } from "./follow-chain/node-behind.ts";
import { settlePublishedAboveCursor } from "./follow-chain/settle-published-above-cursor.ts";

/**
 * After an announcement whose pass found nothing new (the node read over HTTP behind the one that
 * announced: a load-balanced provider, a WebSocket backend ahead of the HTTP one), the tip is asked
 * again after these waits before the follower falls back to its poll interval.
 */
export const RECHECK_AFTER_ANNOUNCEMENT_MS = [25, 50, 100, 200, 400] as const;
/** After a node or database failure the next attempt waits 0.5 s, doubling up to 15 s. */
const RETRY: BackoffSchedule = { firstMs: 500, maxMs: 15_000 };

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
  reorgWindowOf(options);
  await store.begin(coin);
  while (!signal.aborted) {
    try {
      // After a start or a failure, transfers may have been published for blocks never stored.
      if (state.unsettled) await settlePublishedAboveCursor(options);
      state.unsettled = false;
      const idle = await followPass(options, state);
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
