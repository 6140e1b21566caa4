import type { Coin } from "@chaingate/contracts";
import type { FollowChainOptions } from "../../domain/follow-chain.ts";
import type { ScannerInstruments } from "./scanner-instruments.ts";

/** The follower hooks of one chain: progress, position, reorgs, a node behind, blocks waiting for the watch feed. */
export function followerMetricHooks(
  instruments: ScannerInstruments,
  coin: Coin,
): Pick<FollowChainOptions<unknown>, "onBlock" | "onReorg" | "onNodeBehind" | "onWatchFeedBehind"> {
  const {
    blocksProcessed,
    transfersPublished,
    height,
    nodeHeight,
    lagBlocks,
    lagSeconds,
    reorgs,
    reorgDepth,
    reverted,
    nodeBehind,
    watchFeedBehind,
  } = instruments;
  const chain = coin.toLowerCase();
  return {
    onBlock(block, matched, tipHeight) {
      blocksProcessed.inc({ chain });
      if (matched) transfersPublished.inc({ chain }, matched);
      height.set({ chain }, block.height);
      nodeHeight.set({ chain }, tipHeight);
      lagBlocks.set({ chain }, Math.max(0, tipHeight - block.height));
      lagSeconds.set({ chain }, Math.max(0, (Date.now() - block.timeMs) / 1000));
    },
    onReorg({ depth, reverted: count }) {
      reorgs.inc({ chain });
      reorgDepth.observe({ chain }, depth);
      if (count) reverted.inc({ chain }, count);
    },
    onNodeBehind(blocks) {
      nodeBehind.set({ chain }, blocks ?? 0);
    },
    onWatchFeedBehind(behindMs) {
      watchFeedBehind.set({ chain }, behindMs === null ? 0 : behindMs / 1000);
    },
  };
}
