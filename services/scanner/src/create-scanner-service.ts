/**
 * Wires the scanner from its config: database and migrations, the bus, the registry projection
 * (consumer of the watch feed: `webhook.changed` and `webhook.addresses`), and one leased follower
 * per configured chain, woken early by the nodes' block announcements where configured. Its HTTP
 * server answers probes, metrics and `POST /internal/chains/:chain/block-announced` (`-blocknotify`).
 */
import { createWakeableSleep, type WakeableSleep } from "@chaingate/backoff";
import { connectBus } from "@chaingate/bus";
import { blockProcessed, transferMatched, webhookAddresses, webhookChanged, webhookFeed, type Coin } from "@chaingate/contracts";
import { createHttpApp } from "@chaingate/http";
import { createServiceMetrics, listenOptions, openServiceDatabase, serveHttpApp, type ServedApp } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { ScannerConfig } from "./config.ts";
import { followChain } from "./domain/follow-chain.ts";
import type { ChainFollowerSpec } from "./domain/ports.ts";
import { WatchIndex } from "./domain/watch-index.ts";
import { hostname } from "node:os";
import { acquireAdvisoryLease, leaseProbeTimeoutMs } from "./infra/advisory-lease.ts";
import { startChainFollowWatch } from "./infra/chain-follow-watch.ts";
import { createChainGuards } from "./infra/chain-guards.ts";
import { chainsConfigured, createChainSpecs } from "./infra/create-chain-specs.ts";
import { SCANNER_SCHEMA, type ScannerDatabase } from "./infra/database-schema.ts";
import { createJetStreamEventSink } from "./infra/jetstream-event-sink.ts";
import { scannerMigrations } from "./infra/migrations/index.ts";
import { createPostgresChainStateStore } from "./infra/follower-state.ts";
import { createPostgresFollowerStore } from "./infra/postgres-follower-store.ts";
import { createPostgresWatchFeed, storeFeedMessages } from "./infra/postgres-watch-projection.ts";
import { waitForWatchFeed } from "./infra/wait-for-watch-feed.ts";
import { createScannerMetrics } from "./infra/scanner-metrics.ts";
import { startBlockAnnouncements } from "./infra/start-block-announcements.ts";

export interface ScannerService extends ServedApp {
  /** Coins whose lease this process holds right now. */
  following(): Coin[];
}

export async function createScannerService(config: ScannerConfig, logger: Logger): Promise<ScannerService> {
  const database = await openServiceDatabase<ScannerDatabase>({
    settings: config,
    schema: SCANNER_SCHEMA,
    migrations: scannerMigrations,
    applicationName: "chaingate-scanner",
    logger,
  });

  const bus = await connectBus({
    url: config.NATS_URL,
    name: "scanner",
    logger,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    ...(config.NATS_NAMESPACE ? { namespace: config.NATS_NAMESPACE } : {}),
  });
  await bus.ensureStreams([transferMatched, blockProcessed, webhookChanged, webhookAddresses]);
  // The durable is named per database (migration 0002): replicas over one database share it and
  // store each message once; a new database gets its own and rebuilds from the start of the
  // compacted stream, a batch per transaction. Order does not matter for the result: a stored meta
  // or bucket is only ever replaced by a newer version.
  const { name: watchFeedConsumer } = await database.db.selectFrom("watch_feed_consumer").select("name").executeTakeFirstOrThrow();
  const followedCoins = new Set(chainsConfigured(config));
  const watchConsumer = await bus.consumeBatches(webhookFeed, {
    durable: watchFeedConsumer,
    handleBatch: (items) =>
      storeFeedMessages(
        database.db,
        items.map((item) => item.payload),
        { rescanCoins: followedCoins },
      ),
  });
  let feedLoaded = false;

  const index = new WatchIndex();
  const watchFeed = createPostgresWatchFeed(database.db);
  const store = createPostgresFollowerStore(database.db);
  const sink = createJetStreamEventSink(bus);
  const metrics = createServiceMetrics("scanner");
  const scannerMetrics = createScannerMetrics(metrics);
  /** Chains whose node refuses the configured call-trace method, with why (readiness). */
  const tracesRefused = new Map<Coin, string>();
  const {
    specs,
    nodes,
    close: closeNodes,
  } = createChainSpecs(config, scannerMetrics.nodeCalls, (coin, refusal) => {
    scannerMetrics.callTracesUnavailable(coin, refusal !== null);
    if (refusal === null) {
      tracesRefused.delete(coin);
      logger.info({ coin }, "the node gives call traces again: following on");
      return;
    }
    tracesRefused.set(coin, refusal);
    logger.error(
      { coin, reason: refusal, setting: "ETH_TRACE_MODE", mode: config.ETH_TRACE_MODE },
      "the node refuses call traces: blocks wait (internal transfers would be missed); enable the method on the node, pick the other ETH_TRACE_MODE, or set it to off to follow without internal transfers",
    );
  });
  const guards = createChainGuards({
    specs,
    nodes,
    store: createPostgresChainStateStore(database.db),
    logger,
    metrics,
    resetPollMs: config.SCANNER_RESET_POLL_MS,
    resetStaleChains: config.SCANNER_RESET_STALE_CHAINS,
  });
  const stop = new AbortController();
  const held = new Set<Coin>();
  const wakes = new Map<Coin, WakeableSleep>(specs.map((spec) => [spec.coin, createWakeableSleep()]));
  const announcements = await startBlockAnnouncements({ config, bus, wakes, observer: scannerMetrics.announcements, logger });

  const leaseName = (coin: Coin) => `scanner:${coin}`;
  const followWatch = startChainFollowWatch({
    db: database.db,
    chains: specs,
    leaseName,
    unfollowedAfterMs: leaseProbeTimeoutMs(config.SCANNER_LEASE_POLL_MS) + 2 * config.SCANNER_LEASE_POLL_MS,
    logger,
    onChecked: scannerMetrics.followCheck,
  });

  async function runChain(spec: ChainFollowerSpec<unknown>, startHeight: number | undefined): Promise<void> {
    const log = logger.child({ coin: spec.coin });
    while (!stop.signal.aborted) {
      let lease;
      try {
        lease = await acquireAdvisoryLease(
          {
            connectionString: config.DATABASE_URL,
            name: leaseName(spec.coin),
            holder: `${hostname()}:${process.pid}`,
            renewalTable: `${SCANNER_SCHEMA}.lease_renewals`,
            logger: log,
            pollMs: config.SCANNER_LEASE_POLL_MS,
            expiryMs: config.SCANNER_LEASE_EXPIRY_MS,
          },
          stop.signal,
        );
      } catch {
        return;
      }
      held.add(spec.coin);
      scannerMetrics.leading(spec.coin, true);
      try {
        // The guard checks the node's chain and stops loudly on a wrong chain or a reorg below the window.
        await guards.guard(spec.coin).run(AbortSignal.any([stop.signal, lease.signal]), (resetStart, signal) =>
          followChain({
            chain: spec,
            index,
            watchFeed,
            store,
            sink,
            logger: log,
            signal,
            fetchConcurrency: config.SCANNER_FETCH_CONCURRENCY,
            pollIntervalMs: spec.coin === "TRX" ? config.TRX_POLL_INTERVAL_MS : config.SCANNER_POLL_INTERVAL_MS,
            wake: wakes.get(spec.coin)!,
            nodeBehindFailoverMs: config.SCANNER_NODE_BEHIND_FAILOVER_MS,
            watchGraceMs: config.SCANNER_WATCH_GRACE_MS,
            reorgWindow: reorgWindows[spec.coin],
            ...((resetStart ?? startHeight) === undefined ? {} : { startHeight: resetStart ?? startHeight }),
            ...followerHooks(spec.coin),
          }),
        );
      } finally {
        held.delete(spec.coin);
        guards.guard(spec.coin).standby();
        scannerMetrics.leading(spec.coin, false);
        await lease.release();
      }
    }
  }

  /** Chains whose blocks wait for the watch feed, with how far it is behind (readiness). */
  const waitingForFeed = new Map<Coin, number>();
  function followerHooks(coin: Coin) {
    const hooks = scannerMetrics.follower(coin);
    return {
      ...hooks,
      onWatchFeedBehind(behindMs: number | null) {
        hooks.onWatchFeedBehind?.(behindMs);
        if (behindMs === null) waitingForFeed.delete(coin);
        else waitingForFeed.set(coin, behindMs);
      },
    };
  }

  const startHeights: Record<Coin, number | undefined> = {
    BTC: config.BTC_START_HEIGHT,
    ETH: config.ETH_START_HEIGHT,
    TRX: config.TRX_START_HEIGHT,
  };
  const reorgWindows: Record<Coin, number> = { BTC: config.BTC_REORG_WINDOW, ETH: config.ETH_REORG_WINDOW, TRX: config.TRX_REORG_WINDOW };
  // Blocks are matched only once the projection holds what the feed held at start-up.
  const running = waitForWatchFeed(() => bus.consumerProgress(webhookFeed, watchFeedConsumer), stop.signal, logger).then(() => {
    feedLoaded = true;
    logger.info({ chains: specs.map((spec) => spec.coin) }, "watch projection loaded; following chains (one replica each, by lease)");
    return Promise.all(specs.map((spec) => runChain(spec, startHeights[spec.coin])));
  });

  const http = createHttpApp({
    service: "scanner",
    logger,
    metrics,
    readinessChecks: {
      database: () => database.ping(),
      nats: () => bus.ping(),
      watchFeed: async () => {
        if (!feedLoaded) throw new Error("loading the watch projection from the feed");
      },
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
    ...(config.INTERNAL_TOKEN ? { internalToken: config.INTERNAL_TOKEN } : {}),
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
  const served = await serveHttpApp(http, listenOptions(config, logger), async () => {
    stop.abort();
    followWatch.close();
    await announcements.close();
    await running;
    await watchConsumer.stop();
    await bus.close();
    await closeNodes();
    await database.close();
  });
  return { ...served, following: () => [...held] };
}
