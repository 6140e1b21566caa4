/**
 * The watch list is never older than the block: a block is matched only once the projection holds
 * a registry watermark no more than `watchGraceMs` older than the block's moment; otherwise the
 * follower waits for the feed (see follow-chain.ts).
 */
import type { BlockHeader } from "../transfer.ts";
import type { FollowChainOptions } from "./follow-chain-options.ts";
import type { FollowState } from "./follow-state.ts";

/**
 * How far (ms) the watch list is behind what matching a block of this moment needs: > 0 while the
 * newest watermark held is older than the moment less the grace (Infinity before any watermark).
 */
export function watchListBehind(watermarkMs: number | undefined, momentMs: number, graceMs: number): number {
  if (watermarkMs === undefined) return Number.POSITIVE_INFINITY;
  return momentMs - graceMs - watermarkMs;
}

export function waitForWatchFeed<Block>(
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

export function watchFeedCurrent<Block>(options: FollowChainOptions<Block>, state: FollowState): void {
  if (!state.waitingForFeed) return;
  state.waitingForFeed = false;
  options.onWatchFeedBehind?.(null);
  options.logger.info({ coin: options.chain.coin }, "the watch feed caught up: matching again");
}
