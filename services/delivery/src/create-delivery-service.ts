/**
 * Wires the delivery service from its config, each part after what it uses: database and
 * migrations, metrics, the doorbells its loops wait on, the registry and the delivery log, the bus
 * with its consumers (`address.issued` auto-watch, `key.moved` hand-over, `transfer.matched` →
 * jobs), the watch-feed outbox relay (`webhook.changed` / `webhook.addresses`) and its watermark,
 * the backfill of keys' earlier addresses from the xpub service, the delivery worker, the HTTP app.
 * `main.ts` calls it; tests call it with their own config.
 */
import { createChainRegistry } from "@chaingate/chain-registry";
import { lookup } from "node:dns/promises";
import {
  addressIssued,
  blockProcessed,
  deliveryFailed,
  keyMoved,
  transferMatched,
  webhookAddresses,
  webhookChanged,
  webhookWatermark,
} from "@chaingate/contracts";
import { createWakeableSleep } from "@chaingate/backoff";
import {
  connectBusInBackground,
  createServiceMetrics,
  listenOptions,
  openServiceDatabase,
  serveHttpApp,
  type ServedApp,
} from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { DeliveryConfig } from "./config.ts";
import { parseAllowCidrs } from "./domain/forbidden-address.ts";
import { createWebhookApp } from "./http/create-webhook-app.ts";
import { emitCoverageHeartbeats } from "./consumers/emit-coverage-heartbeats.ts";
import { storeMatchedTransfers } from "./consumers/store-matched-transfers.ts";
import { watchIssuedAddresses } from "./consumers/watch-issued-addresses.ts";
import { followKeyMoves } from "./consumers/follow-key-moves.ts";
import { DELIVERY_SCHEMA, type DeliveryDatabase } from "./infra/database-schema.ts";
import { deliveryMigrations } from "./infra/migrations/index.ts";
import { startWebhookChangedRelay } from "./workers/webhook-changed-relay.ts";
import { startWebhookWatermarkPublisher } from "./workers/webhook-watermark-publisher.ts";
import { startClockHeartbeats } from "./workers/clock-heartbeats.ts";
import { startKeyHistoryBackfill } from "./workers/key-history-backfill.ts";
import { createKeyHistoryReader } from "./infra/read-key-history.ts";
import { createWebhookRepository } from "./infra/webhook-repository.ts";
import { startDeliveryWorker } from "./workers/delivery-worker.ts";
import { createDeliveryJobStore } from "./infra/delivery-job-store.ts";
import { createDeliveryMetrics } from "./infra/delivery-metrics.ts";
import { createSender } from "./infra/send-notification.ts";
import { createEventHistory } from "./infra/event-history.ts";
import { createDeliveryLog } from "./infra/delivery-log.ts";
import { pruneDeliveries } from "./infra/prune-deliveries.ts";

/** One page of a key's history from the xpub service. */
const KEY_HISTORY_TIMEOUT_MS = 10_000;

export interface DeliveryService extends ServedApp {
  /** Publishes every queued registry change now (tests; the relay does it on its own). */
  drainWebhookChanges(): Promise<number>;
  /** Reads every queued key history now (tests; 0 without XPUB_URL). */
  drainKeyHistories(): Promise<number>;
}

/** Resolves every address of a host name (A and AAAA), as the connection would. */
async function resolveHost(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

export async function createDeliveryService(config: DeliveryConfig, logger: Logger): Promise<DeliveryService> {
  const database = await openServiceDatabase<DeliveryDatabase>({
    settings: config,
    schema: DELIVERY_SCHEMA,
    migrations: deliveryMigrations,
    applicationName: "chaingate-delivery",
    logger,
  });
  const metrics = createServiceMetrics("delivery");
  const breaker = { threshold: config.DELIVERY_BREAKER_THRESHOLD, coolDownMs: config.DELIVERY_BREAKER_COOL_DOWN_MS };
  const observer = createDeliveryMetrics(metrics, database.db, logger, breaker);

  // Doorbells: what a part rings when it committed work for a loop made later (no forward references).
  const jobsQueued = createWakeableSleep();
  const registryChanged = createWakeableSleep();
  const keysNamed = createWakeableSleep();
  const feedRelayed = createWakeableSleep();

  const quotas = {
    webhooksPerAccount: config.QUOTA_WEBHOOKS_PER_ACCOUNT,
    addressesPerAccount: config.QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT,
    testEventsPerWebhookPerMinute: config.QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE,
  };
  /** A registry write committed: webhooks to relay, maybe keys whose history to read. */
  const registryWritten = () => {
    registryChanged.wake();
    keysNamed.wake();
  };
  const repository = createWebhookRepository(database.db, registryWritten, quotas);
  const deliveries = createDeliveryLog(database.db, jobsQueued.wake, quotas.testEventsPerWebhookPerMinute);

  // The registry never waits for NATS: the outbox catches up, and the consumers start, once the bus is there.
  const bus = connectBusInBackground({
    settings: config,
    name: "delivery",
    logger,
    streams: [webhookChanged, webhookAddresses, webhookWatermark, addressIssued, keyMoved, transferMatched, deliveryFailed, blockProcessed],
    onConnect: async (connected) => [
      await watchIssuedAddresses(connected, repository),
      await followKeyMoves(connected, { db: database.db, onChange: registryWritten }),
      await storeMatchedTransfers(connected, { db: database.db, onJobsQueued: jobsQueued.wake, observer }),
      await emitCoverageHeartbeats(connected, { db: database.db, onJobsQueued: jobsQueued.wake }),
    ],
  });
  const watermark = startWebhookWatermarkPublisher(database.db, bus.get, logger, config.WATCH_WATERMARK_INTERVAL_MS, feedRelayed);
  const relay = startWebhookChangedRelay(database.db, bus.get, logger, feedRelayed.wake, registryChanged);
  const heartbeats = startClockHeartbeats({ db: database.db, bus: bus.get, logger, onJobsQueued: jobsQueued.wake });
  const chains = createChainRegistry(config.EVM_CHAINS);
  const backfill = config.XPUB_URL
    ? startKeyHistoryBackfill({
        db: database.db,
        readHistory: createKeyHistoryReader({
          xpubUrl: config.XPUB_URL,
          chains,
          internalToken: config.INTERNAL_TOKEN,
          timeoutMs: KEY_HISTORY_TIMEOUT_MS,
        }),
        logger,
        onChange: registryChanged.wake,
        wakeups: keysNamed,
      })
    : undefined;
  const allowCidrs = parseAllowCidrs(config.WEBHOOK_ALLOW_CIDRS);
  const worker = startDeliveryWorker({
    jobs: createDeliveryJobStore(database.db, breaker),
    send: createSender({ timeoutMs: config.DELIVERY_TIMEOUT_MS, allowCidrs }),
    logger,
    publisher: bus.get,
    retryScale: config.DELIVERY_RETRY_SCALE,
    perWebhook: config.DELIVERY_PER_WEBHOOK_CONCURRENCY,
    perAccount: config.DELIVERY_PER_ACCOUNT_CONCURRENCY,
    total: config.DELIVERY_CONCURRENCY,
    leaseMs: config.DELIVERY_TIMEOUT_MS + config.DELIVERY_LEASE_MARGIN_MS,
    onWebhookChanged: registryChanged.wake,
    prune: () => pruneDeliveries(database.db, config.DELIVERY_RETENTION_DAYS),
    observer,
    wakeups: jobsQueued,
  });

  const http = createWebhookApp({
    repository,
    deliveries,
    events: createEventHistory(database.db),
    quotas,
    bitcoinNetwork: config.BITCOIN_NETWORK,
    chains,
    allowCidrs,
    resolveHost,
    logger,
    metrics,
    readinessChecks: { database: () => database.ping() },
    degradedChecks: { nats: bus.ping },
    internalToken: config.INTERNAL_TOKEN,
    secretOverlapSeconds: config.WEBHOOK_SECRET_OVERLAP_SECONDS,
  });
  const served = await serveHttpApp(http, listenOptions(config, logger), async () => {
    await bus.stopConsuming();
    await worker.stop();
    await heartbeats.stop();
    await backfill?.stop();
    await relay.stop();
    await watermark.stop();
    await bus.close();
    await database.close();
  });
  return { ...served, drainWebhookChanges: () => relay.drain(), drainKeyHistories: async () => (backfill ? backfill.drain() : 0) };
}

export { ADDRESS_ISSUED_CONSUMER } from "./consumers/watch-issued-addresses.ts";
export { KEY_MOVED_CONSUMER } from "./consumers/follow-key-moves.ts";
export { TRANSFER_MATCHED_CONSUMER } from "./consumers/store-matched-transfers.ts";
