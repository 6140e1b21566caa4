/**
 * The scanner's Prometheus metrics, `scanner_<thing>_<unit|total>{chain}`: progress (blocks,
 * published transfers), position (processed height, the node's tip, lag in blocks and seconds),
 * reorgs and the transfers they reverted, a node behind the processed blocks, blocks waiting for
 * the watch feed, which chains this replica leads and whether any replica follows each, node calls,
 * block announcements (push), and a node that refuses call traces.
 */
import type { Coin } from "@chaingate/contracts";
import { nodeCallMetrics, type ServiceMetrics } from "@chaingate/service-kit";
import type { NodeCallObserver } from "@chaingate/node-client";
import type { FollowChainOptions } from "../domain/follow-chain.ts";
import type { AnnouncementObserver } from "./block-announcement-channel.ts";
import type { FollowCheck } from "./chain-follow-watch.ts";

export interface ScannerMetrics {
  /** The follower hooks of one chain. */
  follower(coin: Coin): Pick<FollowChainOptions<unknown>, "onBlock" | "onReorg" | "onNodeBehind" | "onWatchFeedBehind">;
  /** 1 while this replica holds the chain's lease. */
  leading(coin: Coin, held: boolean): void;
  /** Every replica's periodic check (chain-follow-watch.ts): some replica follows the chain, and the stored cursor's lag behind the node's tip now. */
  followCheck(coin: Coin, check: FollowCheck): void;
  nodeCalls(coin: Coin): NodeCallObserver;
  /** Push channels: announcements received, and whether each is connected. */
  announcements: AnnouncementObserver;
  /** 1 while the chain's node refuses the configured call-trace method (its blocks wait). */
  callTracesUnavailable(coin: Coin, unavailable: boolean): void;
}

export function createScannerMetrics(metrics: ServiceMetrics): ScannerMetrics {
  const p = metrics.prefix;
  const labelNames = ["chain"] as const;
  const blocksProcessed = metrics.counter({
    name: `${p}blocks_processed_total`,
    help: "Blocks processed (matches published, cursor stored).",
    labelNames,
  });
  const transfersPublished = metrics.counter({
    name: `${p}transfers_published_total`,
    help: "transfer.matched notifications published (reverts not included).",
    labelNames,
  });
  const height = metrics.gauge({ name: `${p}height`, help: "Height of the newest block processed.", labelNames });
  const nodeHeight = metrics.gauge({ name: `${p}node_height`, help: "The node's tip height when that block was processed.", labelNames });
  const lagBlocks = metrics.gauge({
    name: `${p}lag_blocks`,
    help: "Blocks between the newest processed block and the node's tip (0 when live): set by the holder at each block, and by every replica every 2 s from the stored cursor and the node's tip now (so it grows while nobody follows).",
    labelNames,
  });
  const lagSeconds = metrics.gauge({
    name: `${p}lag_seconds`,
    help: "Age of the newest processed block's timestamp when it was processed.",
    labelNames,
  });
  const reorgs = metrics.counter({
    name: `${p}reorgs_total`,
    help: "Reorgs rewound (the stored branch left the node's best chain).",
    labelNames,
  });
  const reorgDepth = metrics.histogram({
    name: `${p}reorg_depth_blocks`,
    help: "Processed blocks that left the best chain per reorg.",
    labelNames,
    buckets: [1, 2, 3, 5, 10, 20, 50, 100],
  });
  const reverted = metrics.counter({
    name: `${p}transfers_reverted_total`,
    help: "Notified transfers published again as reverted.",
    labelNames,
  });
  const nodeBehind = metrics.gauge({
    name: `${p}node_behind_blocks`,
    help: "How far the node is behind the newest processed block while the follower waits for it (0: not behind).",
    labelNames,
  });
  const watchFeedBehind = metrics.gauge({
    name: `${p}watch_feed_behind_seconds`,
    help: "While blocks wait for the registry's watch feed: how far its newest watermark is behind what the next block needs (0: current; +Inf: no watermark yet).",
    labelNames,
  });
  const announced = metrics.counter({
    name: `${p}block_announcements_total`,
    help: "Block announcements received (ZMQ, WebSocket newHeads, blocknotify), each waking the follower.",
    labelNames: ["chain", "channel"] as const,
  });
  const channelUp = metrics.gauge({
    name: `${p}push_channel_up`,
    help: "1 while a configured block announcement channel is connected and subscribed, else 0 (the follower polls meanwhile).",
    labelNames: ["chain", "channel"] as const,
  });
  const leader = metrics.gauge({
    name: `${p}leader`,
    help: "1 while this replica follows the chain (holds its lease), else 0.",
    labelNames,
  });

  const followed = metrics.gauge({
    name: `${p}chain_followed`,
    help: "1 while some replica renews the chain's lease, 0 once no replica has renewed it for three lease polls (at least 3 s) plus two: nobody follows the chain (every replica reports it; alert on 0).",
    labelNames,
  });

  const headAge = metrics.gauge({
    name: `${p}head_age_seconds`,
    help: "Seconds since the newest processed block's own timestamp, on every replica every 2 s: grows while the chain's node gets no blocks (a node behind its peers, stalled or cut off), where scanner_lag_blocks against that node stays 0.",
    labelNames,
  });

  const callTracesUnavailable = metrics.gauge({
    name: `${p}call_traces_unavailable`,
    help: "1 while the node refuses the configured call-trace method (ETH_TRACE_MODE): the chain's blocks wait, since without traces internal transfers would be missed.",
    labelNames,
  });

  return {
    follower(coin) {
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
    },
    leading: (coin, held) => leader.set({ chain: coin.toLowerCase() }, held ? 1 : 0),
    followCheck(coin, check) {
      const chain = coin.toLowerCase();
      followed.set({ chain }, check.followed ? 1 : 0);
      if (check.lagBlocks !== undefined) lagBlocks.set({ chain }, check.lagBlocks);
      if (check.headAgeSeconds !== undefined) headAge.set({ chain }, check.headAgeSeconds);
    },
    callTracesUnavailable: (coin, unavailable) => callTracesUnavailable.set({ chain: coin.toLowerCase() }, unavailable ? 1 : 0),
    nodeCalls: (coin) => nodeCallMetrics(metrics, coin.toLowerCase()),
    announcements: {
      announced: (coin, channel) => announced.inc({ chain: coin.toLowerCase(), channel }),
      status: (coin, channel, up) => channelUp.set({ chain: coin.toLowerCase(), channel }, up ? 1 : 0),
    },
  };
}
