import type { WakeableSleep } from "@chaingate/backoff";
import type { Coin } from "@chaingate/contracts";
import { createHttpApp, type HttpApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { ChainFollowWatch } from "../infra/chain-follow-watch.ts";
import type { ChainGuards } from "../infra/chain-guards.ts";
import type { BlockAnnouncements } from "../infra/start-block-announcements.ts";

export interface ScannerHttpAppOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  internalToken: string | undefined;
  /** Readiness of the service's own dependencies (database, NATS, the watch projection loaded). */
  readinessChecks: { database(): Promise<unknown>; nats(): Promise<unknown>; watchFeed(): Promise<void> };
  guards: ChainGuards;
  /** Chains whose blocks wait for the watch feed, with how far it is behind (ms). */
  waitingForFeed: ReadonlyMap<Coin, number>;
  /** Chains whose node refuses the configured call-trace method, with why. */
  tracesRefused: ReadonlyMap<Coin, string>;
  followWatch: ChainFollowWatch;
  announcements: BlockAnnouncements;
  /** The chains this scanner follows, each with its follower's wake. */
  wakes: ReadonlyMap<Coin, WakeableSleep>;
}

/**
 * The scanner's HTTP server: probes (readiness: its dependencies and each chain; degraded: blocks
 * late but not lost), metrics, and `POST /internal/chains/:chain/block-announced` (`-blocknotify`).
 */
export function createScannerHttpApp(options: ScannerHttpAppOptions): HttpApp {
  const { guards, waitingForFeed, tracesRefused, followWatch, announcements, wakes } = options;
  const http = createHttpApp({
    service: "scanner",
    logger: options.logger,
    metrics: options.metrics,
    readinessChecks: {
      ...options.readinessChecks,
      ...guards.readinessChecks,
    },
    degradedChecks: {
      ...guards.degradedChecks,
      // Blocks wait (nothing is missed), but notifications are late: say so without failing readiness.
      watchFeedCurrent: async () => {
        if (waitingForFeed.size === 0) return;
        const behind = [...waitingForFeed].map(
          ([coin, ms]) => `${coin} ${Number.isFinite(ms) ? `${Math.ceil(ms / 1000)} s behind` : "no registry watermark yet"}`,
        );
        throw new Error(`blocks wait for the registry's watch feed: ${behind.join(", ")}`);
      },
      // Blocks wait for traces (nothing is missed), but nothing of that chain is notified meanwhile.
      callTraces: async () => {
        if (tracesRefused.size === 0) return;
        throw new Error(
          `blocks wait for call traces the node refuses: ${[...tracesRefused].map(([coin, why]) => `${coin} ${why}`).join("; ")}`,
        );
      },
      // Nothing is lost (the next holder resumes from the stored cursor), but nothing of the chain is notified meanwhile.
      chainsFollowed: async () => {
        const unfollowed = followWatch.unfollowed();
        if (unfollowed.size === 0) return;
        const silent = [...unfollowed].map(([coin, ms]) => `${coin} (lease not renewed for ${Math.round(ms / 1000)} s)`);
        throw new Error(`no replica follows ${silent.join(", ")}`);
      },
      // Blocks are still seen, by polling: late by up to the poll interval, not lost.
      blockAnnouncements: async () => {
        const down = announcements.down();
        if (down.length) throw new Error(`block announcement channels down (polling meanwhile): ${down.join(", ")}`);
      },
    },
    ...(options.internalToken ? { internalToken: options.internalToken } : {}),
  });
  // -blocknotify (curl): wakes this replica and, over NATS, the chain's lease holder. The request's
  // content is never used, so a caller can cost at most extra tip queries (behind INTERNAL_TOKEN).
  http.route("post", "/internal/chains/:chain(btc|eth|trx)/block-announced", (req, res) => {
    const coin = String(req.params.chain).toUpperCase() as Coin;
    if (!wakes.has(coin)) return void res.status(404).json({ message: `This scanner does not follow ${coin}.` });
    announcements.relay.announce(coin);
    res.status(202).json({ status: "accepted" });
  });
  http.finish();
  return http;
}
