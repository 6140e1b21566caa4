import { sql, type Kysely } from "kysely";
import { createBatchWriter, type BatchWriter } from "../batch-writer.ts";
import type { DeliveryDatabase } from "../database-schema.ts";
import type { AttemptResult } from "../send-notification.ts";
import type { ClaimedJob } from "./claim-due-jobs.ts";

/** Successful attempts recorded in one statement at most. */
const SUCCESS_BATCH = 500;

/** Successes, many per statement (atomic on its own): log each attempt, finish each job, reset the failure counts. */
export function createDeliveredAttemptWriter(db: Kysely<DeliveryDatabase>): BatchWriter<{ job: ClaimedJob; result: AttemptResult }> {
  return createBatchWriter<{ job: ClaimedJob; result: AttemptResult }>(async (delivered) => {
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
}
