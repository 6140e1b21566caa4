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
import type { FollowChainOptions } from "../domain/follow-chain/follow-chain-options.ts";
import type { AnnouncementObserver } from "./block-announcement-channel.ts";
import type { FollowCheck } from "./chain-follow-watch.ts";
import { followerMetricHooks } from "./scanner-metrics/follower-metric-hooks.ts";
import { createScannerInstruments } from "./scanner-metrics/scanner-instruments.ts";

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
  const instruments = createScannerInstruments(metrics);
  const { leader, followed, lagBlocks, headAge, callTracesUnavailable, announced, channelUp } = instruments;
  return {
    follower: (coin) => followerMetricHooks(instruments, coin),
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
