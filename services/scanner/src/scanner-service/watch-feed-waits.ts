import type { Coin } from "@chaingate/contracts";
import type { ScannerMetrics } from "../infra/scanner-metrics.ts";
import type { FollowerHooks } from "./follow-leased-chain.ts";

/** The chains whose blocks wait for the watch feed, learnt from the followers' hooks. */
export interface WatchFeedWaits {
  /** Chains whose blocks wait for the watch feed, with how far it is behind (ms; Infinity: no watermark yet). */
  waitingForFeed: ReadonlyMap<Coin, number>;
  /** The chain's metric hooks, with the watch feed's lag also recorded here (readiness). */
  followerHooks(coin: Coin): FollowerHooks;
}

export function trackWatchFeedWaits(scannerMetrics: ScannerMetrics): WatchFeedWaits {
  const waitingForFeed = new Map<Coin, number>();
  return {
    waitingForFeed,
    followerHooks(coin) {
      const hooks = scannerMetrics.follower(coin);
      return {
        ...hooks,
        onWatchFeedBehind(behindMs: number | null) {
          hooks.onWatchFeedBehind?.(behindMs);
          if (behindMs === null) waitingForFeed.delete(coin);
          else waitingForFeed.set(coin, behindMs);
        },
      };
    },
  };
}
