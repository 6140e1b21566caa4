/** The scanner's Prometheus instruments, `scanner_<thing>_<unit|total>{chain}` (see scanner-metrics.ts). */
import type { ServiceMetrics } from "@chaingate/service-kit";

export type ScannerInstruments = ReturnType<typeof createScannerInstruments>;

/** Registers the scanner's metrics; each is labelled by chain (and channel for announcements). */
export function createScannerInstruments(metrics: ServiceMetrics) {
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
    announced,
    channelUp,
    leader,
    followed,
    headAge,
    callTracesUnavailable,
  };
}
