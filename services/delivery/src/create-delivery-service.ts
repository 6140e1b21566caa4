/**
 * Wires the delivery service from its config: database and migrations, the registry and its
 * watch-feed outbox relay (`webhook.changed` / `webhook.addresses`) and its watermark, the `address.issued` consumer (auto-watch) and the
 * backfill of keys' earlier addresses from the xpub service, the HTTP app.
 * `main.ts` calls it; tests call it with their own config.
 */
import { lookup } from "node:dns/promises";
import { connectBus, type Bus, type Consumption } from "@chaingate/bus";
import { addressIssued, deliveryFailed, transferMatched, webhookAddresses, webhookChanged, webhookWatermark } from "@chaingate/contracts";
import { createDatabase, migrateToLatest } from "@chaingate/db";
import { listenOptions, serveHttpApp, type ServedApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Kysely } from "kysely";
import type { DeliveryConfig } from "./config.ts";
import { parseAllowCidrs } from "./domain/forbidden-address.ts";
import { createWebhookApp } from "./http/create-webhook-app.ts";
import { DELIVERY_SCHEMA, type DeliveryDatabase } from "./infra/database-schema.ts";
import { deliveryMigrations } from "./infra/migrations/index.ts";
import { startWebhookChangedRelay } from "./infra/webhook-changed-relay.ts";
import { startWebhookWatermarkPublisher } from "./infra/webhook-watermark-publisher.ts";
import { startKeyHistoryBackfill } from "./infra/key-history-backfill.ts";
import { createKeyHistoryReader } from "./infra/read-key-history.ts";
import { createWebhookRepository } from "./infra/webhook-repository.ts";
import { startDeliveryWorker } from "./infra/delivery-worker.ts";
import { enqueueDeliveries } from "./infra/enqueue-deliveries.ts";
import { traceparentOf } from "./infra/job-trace-context.ts";
import { createDeliveryMetrics } from "./infra/delivery-metrics.ts";
import { createSender } from "./infra/send-notification.ts";
import { createDeliveryLog } from "./infra/delivery-log.ts";

/** Durable consumer of `address.issued` (replicas share it). */
export const ADDRESS_ISSUED_CONSUMER = "delivery-auto-watch";
/** Durable consumer of `transfer.matched` (replicas share it). */
export const TRANSFER_MATCHED_CONSUMER = "delivery";
/**
 * Events a killed replica had pulled go to another after this (the bus's 30 s default delayed such
 * notifications by half a minute in the faults drill). Storing a batch is one insert, and a slow
 * one keeps its messages with `working()`; an event redelivered anyway is stored once (one job per
 * webhook and event id).
 */
const TRANSFER_MATCHED_ACK_WAIT_MS = 5_000;

const BUS_RETRY_MS = 2_000;
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
  const database = createDatabase<DeliveryDatabase>({
    connectionString: config.DATABASE_URL,
    schema: DELIVERY_SCHEMA,
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: "chaingate-delivery",
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    logger,
  });
  try {
    const applied = await migrateToLatest(database.db as Kysely<unknown>, DELIVERY_SCHEMA, deliveryMigrations, logger);
    if (applied.length) logger.info({ migrations: applied }, "migrated");
  } catch (error) {
    await database.close();
    throw error;
  }

  let relayWake = () => {};
  let backfillWake = () => {};
  const quotas = {
    webhooksPerAccount: config.QUOTA_WEBHOOKS_PER_ACCOUNT,
    addressesPerAccount: config.QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT,
    testEventsPerWebhookPerMinute: config.QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE,
  };
  const repository = createWebhookRepository(
    database.db,
    () => {
      relayWake();
      backfillWake();
    },
    quotas,
  );

  // The bus connects in the background: the registry never waits for NATS (the outbox catches up).
  let bus: Bus | undefined;
  let connecting: Promise<Bus> | undefined;
  const consumptions: Consumption[] = [];
  let closed = false;
  const connectOnce = (): Promise<Bus> =>
    (connecting ??= connectBus({ url: config.NATS_URL, name: "delivery", logger, namespace: config.NATS_NAMESPACE, streamReplicas: config.NATS_STREAM_REPLICAS })
      .then(async (connected) => {
        await connected.ensureStreams([webhookChanged, webhookAddresses, webhookWatermark, addressIssued, transferMatched, deliveryFailed]);
        bus = connected;
        if (!closed) {
          consumptions.push(
            await connected.consume(addressIssued, {
              durable: ADDRESS_ISSUED_CONSUMER,
              handle: async (issued) => {
                await repository.watchIssuedAddress(issued);
              },
            }),
            // Events in batches: one insert per batch, acked after it (each job keeps its message's trace).
            await connected.consumeBatches(transferMatched, {
              durable: TRANSFER_MATCHED_CONSUMER,
              ackWaitMs: TRANSFER_MATCHED_ACK_WAIT_MS,
              handleBatch: async (items) => {
                const stored = await enqueueDeliveries(
                  database.db,
                  items.map((item) => ({ event: item.payload, traceparent: traceparentOf(item.context) })),
                );
                if (stored.length) worker.wake();
                observer.eventsConsumed(items.map((item) => item.payload.coin), stored);
              },
            }),
          );
        }
        return connected;
      })
      .catch((error: unknown) => {
        connecting = undefined;
        throw error;
      }));
  const connectLoop = async () => {
    while (!closed && !bus) {
      try {
        await connectOnce();
      } catch (error) {
        logger.warn({ err: error }, "NATS not reachable; retrying");
        await new Promise((resolve) => setTimeout(resolve, BUS_RETRY_MS));
      }
    }
  };
  void connectLoop();
  const watermark = startWebhookWatermarkPublisher(database.db, connectOnce, logger, config.WATCH_WATERMARK_INTERVAL_MS);
  const relay = startWebhookChangedRelay(database.db, connectOnce, logger, () => watermark.wake());
  relayWake = relay.wake;
  const backfill = config.XPUB_URL
    ? startKeyHistoryBackfill({
        db: database.db,
        readHistory: createKeyHistoryReader({ xpubUrl: config.XPUB_URL, internalToken: config.INTERNAL_TOKEN, timeoutMs: KEY_HISTORY_TIMEOUT_MS }),
        logger,
        onChange: () => relay.wake(),
      })
    : undefined;
  if (backfill) backfillWake = backfill.wake;
  const deliveries = createDeliveryLog(database.db, () => worker.wake(), quotas.testEventsPerWebhookPerMinute);
  const allowCidrs = parseAllowCidrs(config.WEBHOOK_ALLOW_CIDRS);
  const http = createWebhookApp({
    repository,
    deliveries,
    quotas,
    bitcoinNetwork: config.BITCOIN_NETWORK,
    allowCidrs,
    resolveHost,
    logger,
    readinessChecks: { database: () => database.ping() },
    degradedChecks: { nats: async () => (bus ? bus.ping() : Promise.reject(new Error("not connected yet"))) },
    internalToken: config.INTERNAL_TOKEN,
  });
  const observer = createDeliveryMetrics(http.metrics, database.db, logger);
  const worker = startDeliveryWorker({
    db: database.db,
    send: createSender({ timeoutMs: config.DELIVERY_TIMEOUT_MS, allowCidrs: allowCidrs.map(([ip, bits]) => `${ip.toString()}/${bits}`) }),
    logger,
    publisher: connectOnce,
    retryScale: config.DELIVERY_RETRY_SCALE,
    perWebhook: config.DELIVERY_PER_WEBHOOK_CONCURRENCY,
    total: config.DELIVERY_CONCURRENCY,
    leaseMs: config.DELIVERY_TIMEOUT_MS + config.DELIVERY_LEASE_MARGIN_MS,
    onWebhookChanged: () => relay.wake(),
    prune: () => deliveries.prune(config.DELIVERY_RETENTION_DAYS),
    observer,
  });

  const served = await serveHttpApp(http, listenOptions(config, logger), async () => {
    closed = true;
    await Promise.all(consumptions.map((consumption) => consumption.stop()));
    await worker.stop();
    await backfill?.stop();
    await relay.stop();
    await watermark.stop();
    await bus?.close();
    await database.close();
  });
  return { ...served, drainWebhookChanges: () => relay.drain(), drainKeyHistories: async () => (backfill ? backfill.drain() : 0) };
}
