import type { Coin } from "@chaingate/contracts";
import type { FollowChainOptions } from "../../domain/follow-chain/follow-chain-options.ts";
import type { ScannerInstruments } from "./scanner-instruments.ts";

/** The follower hooks of one chain: progress, position, reorgs, a node behind, blocks waiting for the watch feed. */
export function followerMetricHooks(
  metrics: ScannerInstruments,
  coin: Coin,
): Pick<FollowChainOptions<unknown>, "onBlock" | "onReorg" | "onNodeBehind" | "onWatchFeedBehind"> {
  const chain = coin.toLowerCase();
  return {
    onBlock(block, matched, tipHeight) {
      metrics.blocksProcessed.inc({ chain });
      if (matched) metrics.transfersPublished.inc({ chain }, matched);
      metrics.height.set({ chain }, block.height);
      metrics.nodeHeight.set({ chain }, tipHeight);
      metrics.lagBlocks.set({ chain }, Math.max(0, tipHeight - block.height));
      metrics.lagSeconds.set({ chain }, Math.max(0, (Date.now() - block.timeMs) / 1000));
    },
    onReorg({ depth, reverted: count }) {
      metrics.reorgs.inc({ chain });
      metrics.reorgDepth.observe({ chain }, depth);
      if (count) metrics.reverted.inc({ chain }, count);
    },
    onNodeBehind(blocks) {
      metrics.nodeBehind.set({ chain }, blocks ?? 0);
    },
    onWatchFeedBehind(behindMs) {
      metrics.watchFeedBehind.set({ chain }, behindMs === null ? 0 : behindMs / 1000);
    },
  };
}
