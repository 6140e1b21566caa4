/**
 * The delivery's own Prometheus metrics, named `delivery_<thing>_<unit|total>` with a `chain`
 * label (btc, eth, trx), registered on the service's /metrics registry. The queue depth is read
 * from Postgres when scraped (one grouped count over the pending jobs' partial index).
 */
import { COINS, type Coin } from "@chaingate/contracts";
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import { sql, type Kysely } from "kysely";
import { Gauge } from "prom-client";
import type { AttemptOutcome } from "../domain/attempt-outcome.ts";
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

export function createDeliveryMetrics(metrics: ServiceMetrics, db: Kysely<DeliveryDatabase>, logger: Logger): DeliveryObserver {
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
  new Gauge({
    name: `${prefix}queue_jobs`,
    help: "Pending jobs when scraped: due (to be sent now) and scheduled (a later retry, or claimed and being sent).",
    labelNames: ["chain", "state"],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      try {
        const { rows } = await sql<{ coin: Coin; due: string; scheduled: string }>`
          select coin, count(*) filter (where next_attempt_at <= now()) as due, count(*) filter (where next_attempt_at > now()) as scheduled
            from delivery_jobs where status = 'pending' group by coin`.execute(db);
        for (const coin of COINS) {
          const row = rows.find((r) => r.coin === coin);
          this.set({ chain: chainOf(coin), state: "due" }, Number(row?.due ?? 0));
          this.set({ chain: chainOf(coin), state: "scheduled" }, Number(row?.scheduled ?? 0));
        }
      } catch (error) {
        // A scrape while Postgres is away shows no queue rather than failing the whole page.
        logger.warn({ err: error }, "queue depth not read for /metrics");
      }
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
