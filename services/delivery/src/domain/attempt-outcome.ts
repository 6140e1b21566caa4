/**
 * What one delivery attempt's answer means for its job and its webhook: the rules of the spec's
 * "Retries" and "States and transitions", with no I/O so they are tested on their own.
 */
import { nextRetryDelayMs, parseRetryAfter } from "./retry-schedule.ts";

/** Consecutive failed jobs (retries used up) that disable a webhook (spec: States and transitions). */
export const AUTO_DISABLE_FAILURES = 20;
/** Event ids of `POST /webhooks/{id}/test` events: they are sent even to an inactive webhook. */
export const TEST_EVENT_PREFIX = "test_";

/**
 * What became of one attempt: `delivered` (2xx), `gone` (410: the job stops), `refused` (the
 * connect-time address check refused the address; retried like any failure), `retry` (another
 * failure, a later attempt is scheduled), `failed` (another failure on the last attempt).
 */
export type AttemptOutcome = "delivered" | "gone" | "refused" | "retry" | "failed";

/** What the subscriber's endpoint did with one attempt, as the sender saw it. */
export interface AttemptAnswer {
  /** The HTTP status, or null when no answer came (timeout, refused connection). */
  statusCode: number | null;
  /** The `Retry-After` header of the answer, if any. */
  retryAfter?: string;
  /** True when the sender refused the destination (SSRF guard) without connecting. */
  refused?: boolean;
}

export type JobDecision =
  | { status: "delivered"; outcome: "delivered" }
  /** Tried again after `delayMs`. */
  | { status: "pending"; outcome: "retry" | "refused"; delayMs: number }
  /** No more attempts: 410 Gone ends the job at once, anything else once the schedule is used up. */
  | { status: "failed"; outcome: "gone" | "refused" | "failed" };

/**
 * The job's next state after attempt number `attempt` (1 for the first) got `answer`: 2xx is
 * delivered; 410 stops retrying; anything else retries on the schedule (a longer `Retry-After`
 * wins) until it is used up.
 */
export function decideAttempt(
  answer: AttemptAnswer,
  attempt: number,
  retryScale: number,
  now: number,
  random: () => number = Math.random,
): JobDecision {
  const { statusCode } = answer;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { status: "delivered", outcome: "delivered" };
  if (statusCode === 410) return { status: "failed", outcome: "gone" };
  const delayMs = nextRetryDelayMs(attempt, retryScale, parseRetryAfter(answer.retryAfter, now), random);
  if (delayMs !== null) return { status: "pending", outcome: answer.refused ? "refused" : "retry", delayMs };
  return { status: "failed", outcome: answer.refused ? "refused" : "failed" };
}

/** A webhook is disabled when its run of failed jobs reaches AUTO_DISABLE_FAILURES while it is active. */
export function shouldAutoDisable(consecutiveFailedJobs: number, isActive: boolean): boolean {
  return isActive && consecutiveFailedJobs >= AUTO_DISABLE_FAILURES;
}

export interface ClaimedWebhookState {
  eventId: string;
  isActive: boolean;
  deleted: boolean;
}

/**
 * What a claimed job becomes without being sent, or null to send it: `skipped` when its webhook was
 * deleted; `held` when it is inactive (its events wait for it to be enabled again, which pushes or
 * skips them), except test events, which an inactive webhook still receives. The webhook is as it
 * was at the claim.
 */
export function unsentStatus(job: ClaimedWebhookState): "skipped" | "held" | null {
  if (job.deleted) return "skipped";
  if (!job.isActive && !job.eventId.startsWith(TEST_EVENT_PREFIX)) return "held";
  return null;
}
