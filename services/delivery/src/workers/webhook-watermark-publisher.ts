/**
 * Publishes the registry's watermark (`webhook.watermark` on stream WEBHOOK_FEED): a registry time
 * such that every registry change committed before it already has its feed messages in the stream.
 *
 * Invariant: `registry_time` is at or below the time every change not yet in the stream began:
 * `least(now, the start of every transaction of the database open at now, min(created_at)
 * of the queued outbox rows read after that)`. A change committed before the second read is visible
 * to it: either its outbox rows are gone, deleted by a relay transaction that committed only after
 * publishing them (so they are in the stream, before this watermark), or they are still queued and
 * their `created_at` (the writer's transaction start, or an issued address's earlier issuance time)
 * holds the watermark at or below the time the change began. A change still being written when the
 * watermark is read is held by its transaction's start (its rows' `created_at`); one begun later
 * is stamped later than `now`. Limit: sessions of another Postgres role show no `xact_start`
 * without `pg_read_all_stats`, so run every writer of the registry as the delivery's role. The stream keeps the last one;
 * several replicas may each publish theirs and consumers keep the newest.
 */
import type { Bus } from "@chaingate/bus";
import { webhookWatermark } from "@chaingate/contracts";
import type { WakeableSleep } from "@chaingate/backoff";
import type { Logger } from "@chaingate/logger";
import { startBackgroundLoop } from "@chaingate/service-kit";
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../infra/database-schema.ts";

/** Failures logged: the first, then one in this many (NATS down for long must not flood the log). */
const LOG_EVERY_NTH_FAILURE = 30;
/**
 * The pause after a first failure, doubling up to the interval: one timed-out JetStream call (a
 * start under load) must not hold the watermark, and so every match of the scanner, back a whole interval.
 */
const FIRST_RETRY_MS = 250;

export type WatermarkPublisher = Pick<Bus, "publish">;

export interface WebhookWatermarkPublisher {
  /** Publishes one soon (after a relay round that published something); never waits for it. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The registry's watermark time now (see the module's invariant), in two steps whose order matters:
 * first the time `now` at which every open transaction of the database is read (any session may write
 * the registry: a replica, a migration, an operator's SQL)
 * (a write still in flight holds the watermark at its start, when its not yet visible rows took
 * their `created_at`), then the queued rows in a later snapshot (a write that committed in between
 * is visible there). A write that begins after `now` stamps its rows later than `now`.
 */
export async function readRegistryTime(db: Kysely<DeliveryDatabase>): Promise<Date> {
  const { rows: open } = await sql<{ now: Date; open_since: Date | null }>`
    select statement_timestamp() as now,
           (select min(xact_start) from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid()) as open_since`.execute(db);
  const { rows: queued } = await sql<{ queued_since: Date | null }>`select min(created_at) as queued_since from webhook_changes`.execute(
    db,
  );
  const times = [open[0]!.now, open[0]!.open_since, queued[0]!.queued_since].filter((time): time is Date => time !== null);
  return new Date(Math.min(...times.map((time) => time.getTime())));
}

/** A failed publish is retried soon, then less often, never less often than the interval. */
export function startWebhookWatermarkPublisher(
  db: Kysely<DeliveryDatabase>,
  publisher: () => Promise<WatermarkPublisher>,
  logger: Logger,
  intervalMs: number,
  wakeups?: WakeableSleep,
): WebhookWatermarkPublisher {
  const loop = startBackgroundLoop({
    name: "watch feed watermark",
    logger,
    round: async () => {
      const bus = await publisher();
      // Milliseconds, rounded down: a watermark may be early, never late.
      const registryTime = await readRegistryTime(db);
      await bus.publish(webhookWatermark, { registry_time: registryTime.toISOString() });
      return false;
    },
    idleMs: intervalMs,
    retry: { firstMs: Math.min(FIRST_RETRY_MS, intervalMs), maxMs: intervalMs },
    logEveryNthFailure: LOG_EVERY_NTH_FAILURE,
    wakeups,
  });
  return { wake: loop.wake, stop: loop.stop };
}
