/**
 * The delivery jobs in Postgres, as the worker uses them: claim the due ones under a lease, record
 * each attempt with the job's next state, skip, and hand over failed jobs for `delivery.failed`.
 *
 * Claiming reads the webhooks with due jobs (one index descent per webhook with pending jobs, so
 * its cost does not grow with any backlog), shares the free slots among them fairly
 * (domain/allocate-slots.ts), then takes each webhook's oldest due jobs and pushes their
 * `next_attempt_at` one lease ahead in one statement (atomic, so replicas never send the same
 * attempt; a job whose process died is due again when the lease ends). The webhook's circuit
 * breaker (domain/circuit-breaker.ts) lives on its row: each attempt's record updates it.
 */
import type { deliveryFailed, EventPayload } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import { allocateSlots, type DueWebhook } from "../domain/allocate-slots.ts";
import { shouldAutoDisable, type JobDecision } from "../domain/attempt-outcome.ts";
import { breakerCoolDownEnd, isBreakerOpen, isUnreachable, type BreakerSettings } from "../domain/circuit-breaker.ts";
import { createBatchWriter } from "./batch-writer.ts";
import type { DeliveryDatabase } from "./database-schema.ts";
import type { AttemptResult } from "./send-notification.ts";
import { markWebhookChanged } from "./webhook-repository.ts";

/** Successful attempts recorded in one statement at most. */
const SUCCESS_BATCH = 500;

/** A claimed job with its webhook as it was at the claim. */
export interface ClaimedJob {
  webhook_url: string;
  secret: string;
  is_active: number;
  deleted: boolean;
  id: number;
  webhook_id: number;
  account_id: number;
  event_id: string;
  coin: EventPayload<typeof deliveryFailed>["coin"];
  body: string;
  attempts: number;
  traceparent: string | null;
}

export interface ClaimLimits {
  /** Slots free overall. */
  free: number;
  /** Jobs in flight per webhook now. */
  inFlight: ReadonlyMap<number, number>;
  /** Jobs in flight per account now. */
  accountInFlight: ReadonlyMap<number, number>;
  /** At most this many jobs of one webhook in flight. */
  perWebhook: number;
  /** At most this many jobs of one account in flight. */
  perAccount: number;
  leaseMs: number;
}

export type FailedJob = Pick<
  EventPayload<typeof deliveryFailed>,
  "webhook_id" | "event_id" | "coin" | "attempts" | "last_status" | "last_error"
> & { id: number };

export interface DeliveryJobStore {
  claim(limits: ClaimLimits): Promise<ClaimedJob[]>;
  /** Stores a delivered attempt (batched with others; resolves once stored). */
  recordDelivered(job: ClaimedJob, result: AttemptResult): Promise<void>;
  /** Stores any other attempt and the job's next state in one transaction; `disabled` when this failed job disabled its webhook. */
  recordUndelivered(
    job: ClaimedJob,
    result: AttemptResult,
    decision: Exclude<JobDecision, { status: "delivered" }>,
  ): Promise<{ disabled: boolean }>;
  markSkipped(jobId: number): Promise<void>;
  /** Failed jobs whose `delivery.failed` is not published yet, oldest first. */
  unpublishedFailures(limit: number): Promise<FailedJob[]>;
  markFailurePublished(jobId: number): Promise<void>;
}

interface DueWebhookRow {
  webhook_id: string;
  account_id: string;
  oldest_due_at: Date;
  due_jobs: number;
  consecutive_unreachable: number;
  breaker_ready: boolean;
}

export function createDeliveryJobStore(db: Kysely<DeliveryDatabase>, breaker: BreakerSettings): DeliveryJobStore {
  /**
   * Every webhook with due jobs: a skip scan of the pending jobs' (webhook_id, next_attempt_at)
   * index finds each webhook's oldest pending job in one descent, then its due jobs are counted up
   * to the per-webhook cap.
   */
  async function dueWebhooks(perWebhook: number): Promise<DueWebhook[]> {
    const { rows } = await sql<DueWebhookRow>`
      with recursive heads as (
        (select webhook_id, next_attempt_at from delivery_jobs where status = 'pending' order by webhook_id, next_attempt_at limit 1)
        union all
        select later.webhook_id, later.next_attempt_at from heads h cross join lateral (
          select webhook_id, next_attempt_at from delivery_jobs
           where status = 'pending' and webhook_id > h.webhook_id
           order by webhook_id, next_attempt_at limit 1
        ) later
      )
      select h.webhook_id, w.account_id, h.next_attempt_at as oldest_due_at,
             -- An inactive or deleted webhook's jobs are skipped, not sent (test events excepted): no spacing for them.
             case when w.is_active = 1 and w.deleted_at is null then w.consecutive_unreachable else 0 end as consecutive_unreachable,
             (w.breaker_until is null or w.breaker_until <= now()) as breaker_ready,
             (select count(*) from (select 1 from delivery_jobs d
                where d.webhook_id = h.webhook_id and d.status = 'pending' and d.next_attempt_at <= now() limit ${perWebhook}) counted)::int as due_jobs
        from heads h join webhooks w on w.id = h.webhook_id
       where h.next_attempt_at <= now()`.execute(db);
    return rows.map((row) => ({
      webhookId: Number(row.webhook_id),
      accountId: Number(row.account_id),
      oldestDueAt: row.oldest_due_at.getTime(),
      dueJobs: row.due_jobs,
      breakerOpen: isBreakerOpen(row.consecutive_unreachable, breaker),
      breakerReady: row.breaker_ready,
    }));
  }

  /** Successes, many per statement (atomic on its own): log each attempt, finish each job, reset the failure counts. */
  const writeDelivered = createBatchWriter<{ job: ClaimedJob; result: AttemptResult }>(async (delivered) => {
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
      update webhooks set failure_count = 0, consecutive_unreachable = 0, breaker_until = null
       where id in (select webhook_id from done) and (failure_count > 0 or consecutive_unreachable > 0)`.execute(db);
  }, SUCCESS_BATCH);

  return {
    async claim({ free, inFlight, accountInFlight, perWebhook, perAccount, leaseMs }) {
      if (free <= 0) return [];
      const grants = allocateSlots(await dueWebhooks(perWebhook), {
        free,
        perWebhook,
        perAccount,
        webhookInFlight: inFlight,
        accountInFlight,
      });
      if (!grants.length) return [];
      // An open breaker's one attempt takes the webhook's `breaker_until` as its lease first (only
      // one replica can), so no other replica starts another before it ends. Jobs are re-checked
      // under their row locks: a job another replica leased meanwhile is skipped, never sent twice.
      // Planner shape (a million-job backlog took 300 ms to 1.7 s per claim otherwise): the constant
      // inner limit keeps the row estimate small, so no hash join over the whole table and no JIT;
      // LockRows is lazy, so only the `g.jobs` rows the outer limit pulls are locked; `= any(array)`
      // reaches the chosen jobs through the primary key.
      const { rows } = await sql<ClaimedJob>`
        with wanted as (
          select * from unnest(${grants.map((g) => g.webhookId)}::bigint[], ${grants.map((g) => g.jobs)}::int[], ${grants.map((g) => g.probe)}::boolean[])
            as g(webhook_id, jobs, probe)
        ), probes as (
          update webhooks w set breaker_until = now() + ${leaseMs} * interval '1 millisecond'
            from wanted g
           where g.probe and w.id = g.webhook_id and (w.breaker_until is null or w.breaker_until <= now())
          returning w.id
        ), due as (
          select picked.id from wanted g cross join lateral (
            select locked.id from (
              select d.id from delivery_jobs d
               where d.webhook_id = g.webhook_id and d.status = 'pending' and d.next_attempt_at <= now()
               order by d.next_attempt_at limit ${perWebhook}
               for update skip locked
            ) locked limit g.jobs
          ) picked
          where not g.probe or g.webhook_id in (select id from probes)
        )
        update delivery_jobs j set next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
          from webhooks w
         where j.id = any(array(select id from due)) and j.status = 'pending' and j.next_attempt_at <= now() and w.id = j.webhook_id
        returning j.id, j.webhook_id, w.account_id, j.event_id, j.coin, j.body, j.attempts, j.traceparent, w.webhook_url, w.secret, w.is_active,
                  w.deleted_at is not null as deleted`.execute(db);
      return rows.map((row) => ({ ...row, id: Number(row.id), webhook_id: Number(row.webhook_id), account_id: Number(row.account_id) }));
    },

    recordDelivered: (job, result) => writeDelivered({ job, result }),

    async recordUndelivered(job, result, decision) {
      const attempt = job.attempts + 1;
      const delayMs = decision.status === "pending" ? decision.delayMs : 0;
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto("delivery_attempts")
          .values({
            job_id: job.id,
            attempt,
            status_code: result.statusCode,
            latency_ms: result.latencyMs,
            error: result.error,
            response_excerpt: result.responseExcerpt,
          })
          .execute();
        await trx
          .updateTable("delivery_jobs")
          .set({
            status: decision.status,
            attempts: attempt,
            last_status: result.statusCode,
            last_error: result.error,
            updated_at: new Date(),
            next_attempt_at: new Date(Date.now() + delayMs),
          })
          .where("id", "=", job.id)
          .execute();
        // The breaker counts attempts without an answer in a row; a failed job counts toward auto-disable.
        const unreachable = isUnreachable(result);
        const failed = decision.status === "failed";
        const webhook = await trx
          .updateTable("webhooks")
          .set({
            consecutive_unreachable: unreachable ? sql<number>`consecutive_unreachable + 1` : 0,
            breaker_until: unreachable ? sql<Date | null>`breaker_until` : null,
            failure_count: failed ? sql<number>`failure_count + 1` : sql<number>`failure_count`,
          })
          .where("id", "=", job.webhook_id)
          .returning(["failure_count", "is_active", "consecutive_unreachable"])
          .executeTakeFirst();
        if (!webhook) return { disabled: false };
        const coolDownEnd = breakerCoolDownEnd(webhook.consecutive_unreachable, breaker, Date.now());
        if (coolDownEnd) await trx.updateTable("webhooks").set({ breaker_until: coolDownEnd }).where("id", "=", job.webhook_id).execute();
        if (!failed) return { disabled: false };
        if (!shouldAutoDisable(webhook.failure_count, webhook.is_active === 1)) return { disabled: false };
        await trx.updateTable("webhooks").set({ is_active: 0 }).where("id", "=", job.webhook_id).execute();
        await markWebhookChanged(trx, job.webhook_id);
        return { disabled: true };
      });
    },

    async markSkipped(jobId) {
      await db.updateTable("delivery_jobs").set({ status: "skipped", updated_at: new Date() }).where("id", "=", jobId).execute();
    },

    async unpublishedFailures(limit) {
      const rows = await db
        .selectFrom("delivery_jobs")
        .select(["id", "webhook_id", "event_id", "coin", "attempts", "last_status", "last_error"])
        .where("status", "=", "failed")
        .where("failure_published_at", "is", null)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...row, id: Number(row.id), webhook_id: Number(row.webhook_id) }));
    },

    async markFailurePublished(jobId) {
      await db.updateTable("delivery_jobs").set({ failure_published_at: new Date() }).where("id", "=", jobId).execute();
    },
  };
}
