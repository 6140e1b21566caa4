/**
 * Wires the scanner from its config: database and migrations, the bus, the registry projection
 * (consumer of the watch feed: `webhook.changed` and `webhook.addresses`), and one leased follower
 * per configured chain, woken early by the nodes' block announcements where configured. Its HTTP
 * server answers probes, metrics and `POST /internal/chains/:chain/block-announced` (`-blocknotify`).
 */
import { connectBus } from "@chaingate/bus";
import { blockProcessed, transferMatched, webhookAddresses, webhookChanged, webhookFeed, type Coin } from "@chaingate/contracts";
import { createServiceMetrics, listenOptions, openServiceDatabase, serveHttpApp, type ServedApp } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { ScannerConfig } from "./config.ts";
import { WatchIndex } from "./domain/watch-index.ts";
import { createPostgresMempoolStore } from "./infra/postgres-mempool-store.ts";
import { createMempoolWatchers } from "./scanner-service/mempool-watchers.ts";
import { leaseProbeTimeoutMs } from "./infra/advisory-lease.ts";
import { startChainFollowWatch } from "./infra/chain-follow-watch.ts";
import { createChainGuards } from "./infra/chain-guards.ts";
import { chainsConfigured, createChainSpecs } from "./infra/create-chain-specs.ts";
import { SCANNER_SCHEMA, type ScannerDatabase } from "./infra/database-schema.ts";
import { createJetStreamEventSink } from "./infra/jetstream-event-sink.ts";
import { scannerMigrations } from "./infra/migrations/index.ts";
import { createPostgresChainStateStore } from "./infra/follower-state.ts";
import { createPostgresFollowerStore } from "./infra/postgres-follower-store.ts";
import { createPostgresWatchFeed } from "./infra/postgres-watch-projection.ts";
import { waitForWatchFeed } from "./infra/wait-for-watch-feed.ts";
import { createScannerMetrics } from "./infra/scanner-metrics.ts";
import { startBlockAnnouncements } from "./infra/start-block-announcements.ts";
import { trackCallTraceRefusals } from "./scanner-service/call-trace-refusals.ts";
import { createScannerHttpApp } from "./scanner-service/create-scanner-http-app.ts";
import { followLeasedChain, reorgWindowsOf, startHeightsOf, type LeasedChainContext } from "./scanner-service/follow-leased-chain.ts";
import { startWatchFeedConsumer } from "./scanner-service/start-watch-feed-consumer.ts";
import { trackWatchFeedWaits } from "./scanner-service/watch-feed-waits.ts";

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
  const watchFeedConsumer = await startWatchFeedConsumer(database.db, bus, new Set(chainsConfigured(config)));
  let feedLoaded = false;

  const index = new WatchIndex({ maxConfirmations: configuredMaxConfirmations(config) });
  const watchFeed = createPostgresWatchFeed(database.db);
  const store = createPostgresFollowerStore(database.db);
  const metrics = createServiceMetrics("scanner");
  const scannerMetrics = createScannerMetrics(metrics);
  const callTraces = trackCallTraceRefusals(config, logger, scannerMetrics);
  const chains = createChainSpecs(config, scannerMetrics.nodeCalls, callTraces.report, database.db);
  const { specs, nodes, mempools } = chains;
  const sink = createJetStreamEventSink(bus, chains.chainId);
  const guards = createChainGuards({
    specs,
    nodes,
    store: createPostgresChainStateStore(database.db),
    logger,
    metrics,
    resetPollMs: config.SCANNER_RESET_POLL_MS,
    resetStaleChains: config.SCANNER_RESET_STALE_CHAINS,
  });
  const [stop, held] = [new AbortController(), new Set<Coin>()];
  const mempoolWatchers = createMempoolWatchers({
    coins: specs.map((spec) => spec.coin),
    config,
    mempools,
    index,
    store: createPostgresMempoolStore(database.db),
    followerStore: store,
    sink,
    logger,
  });
  const announcements = await startBlockAnnouncements({
    config,
    bus,
    wakes: mempoolWatchers.wakes,
    observer: scannerMetrics.announcements,
    logger,
    transactionAnnounced: mempoolWatchers.hint,
  });

  const leaseName = (coin: Coin) => `scanner:${coin}`;
  const followWatch = startChainFollowWatch({
    db: database.db,
    chains: specs,
    leaseName,
    unfollowedAfterMs: leaseProbeTimeoutMs(config.SCANNER_LEASE_POLL_MS) + 2 * config.SCANNER_LEASE_POLL_MS,
    logger,
    onChecked: scannerMetrics.followCheck,
  });

  const feedWaits = trackWatchFeedWaits(scannerMetrics);
  const leased: LeasedChainContext = {
    config,
    logger,
    stop: stop.signal,
    held,
    scannerMetrics,
    guards,
    leaseName,
    follower: { index, watchFeed, store, sink },
    wakes: mempoolWatchers.wakes,
    reorgWindows: reorgWindowsOf(config),
    followerHooks: feedWaits.followerHooks,
    commitLocks: mempoolWatchers.commitLocks,
    watchMempool: mempoolWatchers.watch,
  };
  // Blocks are matched only once the projection holds what the feed held at start-up.
  const running = waitForWatchFeed(() => bus.consumerProgress(webhookFeed, watchFeedConsumer.name), stop.signal, logger).then(() => {
    feedLoaded = true;
    logger.info({ chains: specs.map((spec) => spec.coin) }, "watch projection loaded; following chains (one replica each, by lease)");
    return Promise.all(specs.map((spec) => followLeasedChain(leased, spec, startHeightsOf(config)[spec.coin])));
  });

  const http = createScannerHttpApp({
    logger,
    metrics,
    internalToken: config.INTERNAL_TOKEN,
    readinessChecks: {
      database: () => database.ping(),
      nats: () => bus.ping(),
      watchFeed: async () => {
        if (!feedLoaded) throw new Error("loading the watch projection from the feed");
      },
    },
    guards,
    waitingForFeed: feedWaits.waitingForFeed,
    tracesRefused: callTraces.refused,
    followWatch,
    announcements,
    wakes: mempoolWatchers.wakes,
  });
  const served = await serveHttpApp(http, listenOptions(config, logger), async () => {
    stop.abort();
    followWatch.close();
    await announcements.close();
    await running;
    await watchFeedConsumer.consumer.stop();
    await bus.close();
    await chains.close();
    await database.close();
  });
  return { ...served, following: () => [...held] };
}

/** A configured EVM chain's maximum confirmations is its registry entry's (the built-in chains' are known). */
function configuredMaxConfirmations(config: ScannerConfig): (coin: string) => number | undefined {
  const maxima = new Map(config.EVM_CHAINS.map(({ entry }) => [entry.coin, entry.confirmations.max]));
  return (coin) => maxima.get(coin);
}
