/**
 * Runs delivery jobs from Postgres. Jobs due now are claimed by pushing their `next_attempt_at`
 * one lease ahead (atomic, so replicas never send the same attempt; a job whose process died is
 * due again when the lease ends). Each job is sent on its own (no batch waits for its slowest
 * member), at most `perWebhook` at a time per webhook and `total` overall, so a slow or dead
 * subscriber only ever holds its own slots. The outcome and the next schedule are stored with the
 * attempt's log row before the slot is freed: successes of many jobs together in one statement,
 * anything else in a transaction of its own.
 *
 * Each attempt is a span whose parent is the context stored with the job (the consumer span of its
 * `transfer.matched` message); the POST's client span is its child and sends `traceparent` on.
 */
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { deliveryFailed, type EventPayload } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { sql, type Kysely } from "kysely";
import { nextRetryDelayMs, parseRetryAfter } from "../domain/retry-schedule.ts";
import { signNotification } from "../domain/sign-notification.ts";
import type { DeliveryDatabase } from "./database-schema.ts";
import type { AttemptResult, SendNotification } from "./send-notification.ts";
import { createBatchWriter } from "./batch-writer.ts";
import { contextOfTraceparent } from "./job-trace-context.ts";
import { noObserver, type AttemptOutcome, type DeliveryObserver } from "./delivery-metrics.ts";
import { createWakeableSleep } from "./wakeable-sleep.ts";
import { markWebhookChanged } from "./webhook-repository.ts";
import { TEST_EVENT_PREFIX } from "./delivery-log.ts";

/** Consecutive failed jobs (retries used up) that disable a webhook (spec: States and transitions). */
export const AUTO_DISABLE_FAILURES = 20;
const IDLE_POLL_MS = 200;
const ERROR_BACKOFF_MS = 1_000;
const FAILURE_BATCH = 100;
const PRUNE_INTERVAL_MS = 3_600_000;
/**
 * Due jobs read per free slot when claiming: the per-webhook cap is applied among these, so a
 * claim costs the same with a backlog of a million jobs as with ten (webhooks already at their cap
 * are skipped before, so their backlog does not fill the candidates).
 */
const CLAIM_CANDIDATES_PER_SLOT = 4;
/** Successful attempts recorded in one statement at most. */
const SUCCESS_BATCH = 500;

const tracer = trace.getTracer("@chaingate/delivery");

export interface DeliveryWorkerOptions {
  db: Kysely<DeliveryDatabase>;
  send: SendNotification;
  logger: Logger;
  /** Resolves the bus (for `delivery.failed`). */
  publisher: () => Promise<{ publish(contract: typeof deliveryFailed, payload: EventPayload<typeof deliveryFailed>): Promise<unknown> }>;
  retryScale: number;
  perWebhook: number;
  total: number;
  leaseMs: number;
  /** Deletes finished deliveries past retention; run every PRUNE_INTERVAL_MS. */
  prune: () => Promise<number>;
  /** After a webhook's state changed (auto-disable): the registry outbox relay should run. */
  onWebhookChanged: () => void;
  /** Told of every attempt, failed job and disabled webhook (the service's metrics). */
  observer?: DeliveryObserver;
}

export interface DeliveryWorker {
  wake(): void;
  stop(): Promise<void>;
}

interface ClaimedJob {
  webhook_url: string;
  secret: string;
  is_active: number;
  deleted: boolean;
  id: number;
  webhook_id: number;
  event_id: string;
  coin: EventPayload<typeof deliveryFailed>["coin"];
  body: string;
  attempts: number;
  traceparent: string | null;
}

interface Delivered {
  job: ClaimedJob;
  result: AttemptResult;
}

export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, logger } = options;
  const observer = options.observer ?? noObserver;
  const inFlight = new Map<number, number>();
  let running = 0;
  let stopped = false;
  const pause = createWakeableSleep();
  const sending = new Set<Promise<void>>();

  async function claim(): Promise<ClaimedJob[]> {
    const free = options.total - running;
    if (free <= 0) return [];
    const busyIds = [...inFlight.keys()];
    const busyCounts = busyIds.map((id) => inFlight.get(id)!);
    const saturated = busyIds.filter((id) => inFlight.get(id)! >= options.perWebhook);
    // Candidates come from the due index in schedule order, without the webhooks already at their
    // cap; among them each webhook gets at most its free slots. A webhook below its cap with a long
    // backlog can fill one claim's candidates, but once at its cap it is skipped in the next.
    const { rows } = await sql<ClaimedJob>`
      update delivery_jobs j set next_attempt_at = now() + ${options.leaseMs} * interval '1 millisecond', updated_at = now()
      from (
        select c.id from (
          select id, webhook_id, next_attempt_at, row_number() over (partition by webhook_id order by next_attempt_at, id) as rn
            from (
              select id, webhook_id, next_attempt_at from delivery_jobs
               where status = 'pending' and next_attempt_at <= now() and webhook_id <> all(${saturated}::bigint[])
               order by next_attempt_at
               limit ${free * CLAIM_CANDIDATES_PER_SLOT}
            ) candidates
        ) c
        left join unnest(${busyIds}::bigint[], ${busyCounts}::int[]) as busy(webhook_id, used) on busy.webhook_id = c.webhook_id
        where c.rn <= ${options.perWebhook} - coalesce(busy.used, 0)
        order by c.rn, c.next_attempt_at
        limit ${free}
      ) due
      , webhooks w
      where j.id = due.id and j.status = 'pending' and j.next_attempt_at <= now() and w.id = j.webhook_id
      returning j.id, j.webhook_id, j.event_id, j.coin, j.body, j.attempts, j.traceparent, w.webhook_url, w.secret, w.is_active, w.deleted_at is not null as deleted`.execute(db);
    return rows.map((row) => ({ ...row, id: Number(row.id), webhook_id: Number(row.webhook_id) }));
  }

  /** Successes, many per statement (atomic on its own): log each attempt, finish each job, reset the failure counts. */
  const recordDelivered = createBatchWriter<Delivered>(async (delivered) => {
    await sql`
      with done as (
        select * from unnest(${delivered.map((d) => d.job.id)}::bigint[], ${delivered.map((d) => d.job.webhook_id)}::bigint[], ${delivered.map((d) => d.job.attempts + 1)}::int[],
                             ${delivered.map((d) => d.result.statusCode)}::int[], ${delivered.map((d) => d.result.latencyMs)}::int[], ${delivered.map((d) => d.result.responseExcerpt)}::text[])
          as d(job_id, webhook_id, attempt, status_code, latency_ms, response_excerpt)
      ), logged as (
        insert into delivery_attempts (job_id, attempt, status_code, latency_ms, error, response_excerpt)
        select job_id, attempt, status_code, latency_ms, null, response_excerpt from done
      ), finished as (
        update delivery_jobs j set status = 'delivered', attempts = done.attempt, last_status = done.status_code, last_error = null, updated_at = now()
          from done where j.id = done.job_id
      )
      update webhooks set failure_count = 0 where id in (select webhook_id from done) and failure_count > 0`.execute(db);
  }, SUCCESS_BATCH);

  async function record(job: ClaimedJob, result: AttemptResult): Promise<void> {
    const attempt = job.attempts + 1;
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    const delay = delivered || gone ? null : nextRetryDelayMs(attempt, options.retryScale, parseRetryAfter(result.retryAfter, Date.now()));
    const status = delivered ? "delivered" : delay === null ? "failed" : "pending";
    const outcome: AttemptOutcome = delivered ? "delivered" : gone ? "gone" : result.refused ? "refused" : delay === null ? "failed" : "retry";
    if (delivered) {
      await recordDelivered({ job, result });
      observer.attempt(job.coin, outcome, result.latencyMs / 1000);
      return;
    }
    let changed = false;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("delivery_attempts")
        .values({ job_id: job.id, attempt, status_code: result.statusCode, latency_ms: result.latencyMs, error: result.error, response_excerpt: result.responseExcerpt })
        .execute();
      await trx
        .updateTable("delivery_jobs")
        .set({ status, attempts: attempt, last_status: result.statusCode, last_error: result.error, updated_at: new Date(), next_attempt_at: new Date(Date.now() + (delay ?? 0)) })
        .where("id", "=", job.id)
        .execute();
      if (status === "failed") {
        const webhook = await trx
          .updateTable("webhooks")
          .set({ failure_count: sql<number>`failure_count + 1` })
          .where("id", "=", job.webhook_id)
          .returning(["failure_count", "is_active"])
          .executeTakeFirst();
        if (webhook && webhook.failure_count >= AUTO_DISABLE_FAILURES && webhook.is_active === 1) {
          await trx.updateTable("webhooks").set({ is_active: 0 }).where("id", "=", job.webhook_id).execute();
          await markWebhookChanged(trx, job.webhook_id);
          changed = true;
        }
      }
    });
    observer.attempt(job.coin, outcome, result.latencyMs / 1000);
    if (status === "failed") observer.jobFailed(job.coin);
    if (changed) {
      logger.warn({ webhookId: job.webhook_id }, `webhook disabled after ${AUTO_DISABLE_FAILURES} consecutive failed deliveries`);
      observer.webhookDisabled(job.coin);
      options.onWebhookChanged();
    }
  }

  async function run(job: ClaimedJob): Promise<void> {
    // The webhook as it was when the job was claimed: a rotation is seen by the next claimed attempt.
    const inactive = job.is_active !== 1 && !job.event_id.startsWith(TEST_EVENT_PREFIX);
    if (job.deleted || inactive) {
      await db.updateTable("delivery_jobs").set({ status: "skipped", updated_at: new Date() }).where("id", "=", job.id).execute();
      return;
    }
    const headers = signNotification(job.secret, job.event_id, job.body, Math.floor(Date.now() / 1000));
    const parent = contextOfTraceparent(job.traceparent);
    const span = tracer.startSpan(
      "webhook delivery attempt",
      { kind: SpanKind.INTERNAL, attributes: { "chaingate.webhook_id": job.webhook_id, "chaingate.event_id": job.event_id, "chaingate.attempt": job.attempts + 1 } },
      parent,
    );
    try {
      const result = await context.with(trace.setSpan(parent, span), () => options.send(job.webhook_url, job.body, headers));
      if (result.statusCode !== null) span.setAttribute("http.response.status_code", result.statusCode);
      if (result.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
      await record(job, result);
    } finally {
      span.end();
    }
  }

  function launch(job: ClaimedJob): void {
    running++;
    inFlight.set(job.webhook_id, (inFlight.get(job.webhook_id) ?? 0) + 1);
    const task = run(job)
      .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, "delivery attempt not recorded; the job is due again after its lease"))
      .finally(() => {
        running--;
        const left = (inFlight.get(job.webhook_id) ?? 1) - 1;
        if (left > 0) inFlight.set(job.webhook_id, left);
        else inFlight.delete(job.webhook_id);
        sending.delete(task);
        pause.wake();
      });
    sending.add(task);
  }

  async function publishFailures(): Promise<void> {
    const failed = await db
      .selectFrom("delivery_jobs")
      .select(["id", "webhook_id", "event_id", "coin", "attempts", "last_status", "last_error"])
      .where("status", "=", "failed")
      .where("failure_published_at", "is", null)
      .orderBy("id")
      .limit(FAILURE_BATCH)
      .execute();
    if (!failed.length) return;
    const bus = await options.publisher();
    for (const job of failed) {
      await bus.publish(deliveryFailed, { webhook_id: job.webhook_id, event_id: job.event_id, coin: job.coin, attempts: job.attempts, last_status: job.last_status, last_error: job.last_error });
      await db.updateTable("delivery_jobs").set({ failure_published_at: new Date() }).where("id", "=", job.id).execute();
    }
  }

  const loop = (async () => {
    let lastFailureCheck = 0;
    let lastPrune = 0;
    while (!stopped) {
      let claimed = 0;
      try {
        const jobs = await claim();
        claimed = jobs.length;
        for (const job of jobs) launch(job);
        if (Date.now() - lastFailureCheck > 1_000) {
          lastFailureCheck = Date.now();
          await publishFailures();
        }
        if (Date.now() - lastPrune > PRUNE_INTERVAL_MS) {
          lastPrune = Date.now();
          const pruned = await options.prune();
          if (pruned) logger.info({ pruned }, "deliveries past retention deleted");
        }
      } catch (error) {
        logger.warn({ err: error }, "delivery loop failed; backing off");
        await new Promise((resolve) => setTimeout(resolve, ERROR_BACKOFF_MS));
        continue;
      }
      if (stopped) break;
      if (claimed > 0 && running < options.total) continue;
      await pause.sleep(IDLE_POLL_MS);
    }
  })();

  return {
    wake: pause.wake,
    async stop() {
      stopped = true;
      pause.wake();
      await loop;
      await Promise.all([...sending]);
    },
  };
}
