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
import type { Kysely } from "kysely";
import type { JobDecision } from "../domain/attempt-outcome.ts";
import type { BreakerSettings } from "../domain/circuit-breaker.ts";
import type { DeliveryDatabase } from "./database-schema.ts";
import { claimDueJobs, type ClaimedJob, type ClaimLimits } from "./delivery-job-store/claim-due-jobs.ts";
import { markJobHeld, markJobSkipped } from "./delivery-job-store/mark-job-unsent.ts";
import { createDeliveredAttemptWriter } from "./delivery-job-store/record-delivered-attempts.ts";
import { recordUndeliveredAttempt } from "./delivery-job-store/record-undelivered-attempt.ts";
import { markFailurePublished, readUnpublishedFailures, type FailedJob } from "./delivery-job-store/unpublished-failures.ts";
import { fanOutOperationalEvents } from "./fan-out-operational-events.ts";
import type { AttemptResult } from "./send-notification.ts";

export type { ClaimedJob, ClaimLimits } from "./delivery-job-store/claim-due-jobs.ts";
export type { FailedJob } from "./delivery-job-store/unpublished-failures.ts";

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
  /** Holds the job while its webhook is inactive (due again at once if it was enabled meanwhile). */
  markHeld(jobId: number, webhookId: number): Promise<void>;
  /** Failed jobs whose `delivery.failed` is not published yet, oldest first. */
  unpublishedFailures(limit: number): Promise<FailedJob[]>;
  markFailurePublished(jobId: number): Promise<void>;
  /** Turns queued operational events into numbered jobs (at most `limit` events); how many jobs are to be sent. */
  fanOutOperationalEvents(limit: number): Promise<number>;
}

/** The job store over `db`; each operation lives in delivery-job-store/, named by what it does. */
export function createDeliveryJobStore(db: Kysely<DeliveryDatabase>, breaker: BreakerSettings): DeliveryJobStore {
  const writeDelivered = createDeliveredAttemptWriter(db);
  return {
    claim: (limits) => claimDueJobs(db, breaker, limits),
    recordDelivered: (job, result) => writeDelivered({ job, result }),
    recordUndelivered: (job, result, decision) => recordUndeliveredAttempt(db, breaker, job, result, decision),
    markSkipped: (jobId) => markJobSkipped(db, jobId),
    markHeld: (jobId, webhookId) => markJobHeld(db, jobId, webhookId),
    unpublishedFailures: (limit) => readUnpublishedFailures(db, limit),
    markFailurePublished: (jobId) => markFailurePublished(db, jobId),
    fanOutOperationalEvents: (limit) => fanOutOperationalEvents(db, limit),
  };
}
