/**
 * The delivery's own Prometheus metrics, named `delivery_<thing>_<unit|total>` with a `chain`
 * label (btc, eth, trx), registered on the service's /metrics registry. The queue depth (one
 * grouped count over the pending jobs' partial index) and the open circuit breakers are read from
 * Postgres when scraped, so every replica shows the whole service's figure.
 */
import { COINS, type Coin } from "@chaingate/contracts";
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import { sql, type Kysely } from "kysely";
import { Gauge } from "prom-client";
import type { AttemptOutcome } from "../domain/attempt-outcome.ts";
import type { BreakerSettings } from "../domain/circuit-breaker.ts";
import type { DeliveryDatabase } from "./database-schema.ts";

/** What the worker and the consumer report; the metrics below implement it, tests may too. */
export interface DeliveryObserver {
  attempt(coin: Coin, outcome: AttemptOutcome, seconds: number): void;
  /** A job that used up its attempts or got a 410 (it counts one failure against its webhook). */
  jobFailed(coin: Coin): void;
  /** A webhook set inactive after AUTO_DISABLE_FAILURES consecutive failed jobs. */
  webhookDisabled(coin: Coin): void;
  /** A batch of `transfer.matched` events acked (their coins): `stored` became jobs, the rest were duplicates or for unknown webhooks. */
  eventsConsumed(consumed: readonly Coin[], stored: readonly Coin[]): void;
}

export const noObserver: DeliveryObserver = { attempt() {}, jobFailed() {}, webhookDisabled() {}, eventsConsumed() {} };

const chainOf = (coin: Coin) => coin.toLowerCase();

/** A gauge whose value `read` takes from Postgres at each scrape. */
function readWhenScraped<Label extends string>(
  metrics: ServiceMetrics,
  logger: Logger,
  config: { name: string; help: string; labelNames: Label[]; read(gauge: Gauge<Label>): Promise<void> },
): void {
  new Gauge<Label>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      try {
        await config.read(this);
      } catch (error) {
        // A scrape while Postgres is away shows nothing for this gauge rather than failing the whole page.
        logger.warn({ err: error, metric: config.name }, "gauge not read for /metrics");
      }
    },
  });
}

export function createDeliveryMetrics(
  metrics: ServiceMetrics,
  db: Kysely<DeliveryDatabase>,
  logger: Logger,
  breaker: BreakerSettings,
): DeliveryObserver {
  const { prefix } = metrics;
  const attempts = metrics.counter({
    name: `${prefix}attempts_total`,
    help: "Delivery attempts by outcome: delivered, gone (410), refused (connect-time address check), retry (failed, another attempt scheduled), failed (failed, no attempt left).",
    labelNames: ["chain", "outcome"],
  });
  const attemptDuration = metrics.histogram({
    name: `${prefix}attempt_duration_seconds`,
    help: "One attempt from connecting to the subscriber's last byte (or the error), by outcome.",
    labelNames: ["chain", "outcome"],
  });
  const jobsFailed = metrics.counter({
    name: `${prefix}jobs_failed_total`,
    help: "Jobs failed for good (attempts used up, or 410): each counts one failure against its webhook.",
    labelNames: ["chain"],
  });
  const disabled = metrics.counter({
    name: `${prefix}webhooks_disabled_total`,
    help: "Webhooks set inactive after 20 consecutive failed jobs.",
    labelNames: ["chain"],
  });
  const consumed = metrics.counter({
    name: `${prefix}events_consumed_total`,
    help: "transfer.matched events acked: stored as a job, or ignored (a duplicate, or a webhook this registry does not know).",
    labelNames: ["chain", "result"],
  });
  readWhenScraped(metrics, logger, {
    name: `${prefix}queue_jobs`,
    help: "Pending jobs when scraped: due (to be sent now) and scheduled (a later retry, or claimed and being sent).",
    labelNames: ["chain", "state"],
    async read(gauge) {
      const { rows } = await sql<{ coin: Coin; due: string; scheduled: string }>`
        select coin, count(*) filter (where next_attempt_at <= now()) as due, count(*) filter (where next_attempt_at > now()) as scheduled
          from delivery_jobs where status = 'pending' group by coin`.execute(db);
      for (const coin of COINS) {
        const row = rows.find((r) => r.coin === coin);
        gauge.set({ chain: chainOf(coin), state: "due" }, Number(row?.due ?? 0));
        gauge.set({ chain: chainOf(coin), state: "scheduled" }, Number(row?.scheduled ?? 0));
      }
    },
  });
  readWhenScraped(metrics, logger, {
    name: `${prefix}webhook_breakers_open`,
    help: "Webhooks whose circuit breaker is open when scraped (DELIVERY_BREAKER_THRESHOLD attempts in a row got no answer): their attempts go one at a time, a cool-down apart, until the endpoint answers.",
    labelNames: [],
    async read(gauge) {
      // Inactive and deleted webhooks' jobs are skipped, not sent: their breakers do not space anything.
      const { rows } = await sql<{ open: string }>`
        select count(*) as open from webhooks
         where is_active = 1 and deleted_at is null and consecutive_unreachable >= ${breaker.threshold}`.execute(db);
      gauge.set(Number(rows[0]?.open ?? 0));
    },
  });
  return {
    attempt(coin, outcome, seconds) {
      attempts.inc({ chain: chainOf(coin), outcome });
      attemptDuration.observe({ chain: chainOf(coin), outcome }, seconds);
    },
    jobFailed: (coin) => jobsFailed.inc({ chain: chainOf(coin) }),
    webhookDisabled: (coin) => disabled.inc({ chain: chainOf(coin) }),
    eventsConsumed(consumedCoins, storedCoins) {
      for (const coin of COINS) {
        const all = consumedCoins.filter((c) => c === coin).length;
        const stored = storedCoins.filter((c) => c === coin).length;
        if (stored) consumed.inc({ chain: chainOf(coin), result: "stored" }, stored);
        if (all > stored) consumed.inc({ chain: chainOf(coin), result: "ignored" }, all - stored);
      }
    },
  };
}
