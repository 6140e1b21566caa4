/**
 * The delivery jobs in Postgres, as the worker uses them: claim the due ones under a lease, record
 * each attempt with the job's next state, skip, and hand over failed jobs for `delivery.failed`.
 *
 * Claiming pushes a job's `next_attempt_at` one lease ahead (atomic, so replicas never send the
 * same attempt; a job whose process died is due again when the lease ends).
 */
import type { deliveryFailed, EventPayload } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import { shouldAutoDisable, type JobDecision } from "../domain/attempt-outcome.ts";
import { createBatchWriter } from "./batch-writer.ts";
import type { DeliveryDatabase } from "./database-schema.ts";
import type { AttemptResult } from "./send-notification.ts";
import { markWebhookChanged } from "./webhook-repository.ts";

/**
 * Due jobs read per free slot when claiming: the per-webhook cap is applied among these, so a
 * claim costs the same with a backlog of a million jobs as with ten (webhooks already at their cap
 * are skipped before, so their backlog does not fill the candidates).
 */
const CLAIM_CANDIDATES_PER_SLOT = 4;
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
  /** At most this many jobs of one webhook in flight. */
  perWebhook: number;
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

export function createDeliveryJobStore(db: Kysely<DeliveryDatabase>): DeliveryJobStore {
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
      update webhooks set failure_count = 0 where id in (select webhook_id from done) and failure_count > 0`.execute(db);
  }, SUCCESS_BATCH);

  return {
    async claim({ free, inFlight, perWebhook, leaseMs }) {
      if (free <= 0) return [];
      const busyIds = [...inFlight.keys()];
      const busyCounts = busyIds.map((id) => inFlight.get(id)!);
      const saturated = busyIds.filter((id) => inFlight.get(id)! >= perWebhook);
      // Candidates come from the due index in schedule order, without the webhooks already at their
      // cap; among them each webhook gets at most its free slots. A webhook below its cap with a long
      // backlog can fill one claim's candidates, but once at its cap it is skipped in the next.
      const { rows } = await sql<ClaimedJob>`
        update delivery_jobs j set next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
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
          where c.rn <= ${perWebhook} - coalesce(busy.used, 0)
          order by c.rn, c.next_attempt_at
          limit ${free}
        ) due
        , webhooks w
        where j.id = due.id and j.status = 'pending' and j.next_attempt_at <= now() and w.id = j.webhook_id
        returning j.id, j.webhook_id, j.event_id, j.coin, j.body, j.attempts, j.traceparent, w.webhook_url, w.secret, w.is_active, w.deleted_at is not null as deleted`.execute(
        db,
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), webhook_id: Number(row.webhook_id) }));
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
        if (decision.status !== "failed") return { disabled: false };
        const webhook = await trx
          .updateTable("webhooks")
          .set({ failure_count: sql<number>`failure_count + 1` })
          .where("id", "=", job.webhook_id)
          .returning(["failure_count", "is_active"])
          .executeTakeFirst();
        if (!webhook || !shouldAutoDisable(webhook.failure_count, webhook.is_active === 1)) return { disabled: false };
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
