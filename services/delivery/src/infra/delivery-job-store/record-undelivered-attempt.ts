import { sql, type Kysely, type Transaction } from "kysely";
import { shouldAutoDisable, type JobDecision } from "../../domain/attempt-outcome.ts";
import { breakerCoolDownEnd, isUnreachable, type BreakerSettings } from "../../domain/circuit-breaker.ts";
import { reportsExhaustion, type OperationalEventType } from "../../domain/operational-events.ts";
import type { DeliveryDatabase } from "../database-schema.ts";
import type { AttemptResult } from "../send-notification.ts";
import { markWebhookChanged } from "../webhook-repository/mark-webhook-changed.ts";
import type { ClaimedJob } from "./claim-due-jobs.ts";

/**
 * Stores any attempt but a delivered one and the job's next state in one transaction, updating the
 * webhook's circuit breaker and failure count; `disabled` when this failed job disabled its webhook.
 * A transfer whose attempts ran out, and a disable, queue their operational events (outbox rows).
 */
export async function recordUndeliveredAttempt(
  db: Kysely<DeliveryDatabase>,
  breaker: BreakerSettings,
  job: ClaimedJob,
  result: AttemptResult,
  decision: Exclude<JobDecision, { status: "delivered" }>,
): Promise<{ disabled: boolean }> {
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
      .returning(["failure_count", "is_active", "consecutive_unreachable", "last_sequence"])
      .executeTakeFirst();
    if (!webhook) return { disabled: false };
    const coolDownEnd = breakerCoolDownEnd(webhook.consecutive_unreachable, breaker, Date.now());
    if (coolDownEnd) await trx.updateTable("webhooks").set({ breaker_until: coolDownEnd }).where("id", "=", job.webhook_id).execute();
    if (!failed) return { disabled: false };
    const subject = { webhook_id: job.webhook_id, coin: job.coin };
    if (reportsExhaustion(job.event_id, decision))
      await queueOperationalEvent(trx, job, "delivery.exhausted", {
        ...subject,
        event_id: job.event_id,
        sequence: job.sequence,
        attempts: attempt,
        last_status: result.statusCode,
        last_error: result.error,
      });
    if (!shouldAutoDisable(webhook.failure_count, webhook.is_active === 1)) return { disabled: false };
    await trx.updateTable("webhooks").set({ is_active: 0 }).where("id", "=", job.webhook_id).execute();
    await markWebhookChanged(trx, job.webhook_id);
    await queueOperationalEvent(trx, job, "webhook.disabled", {
      ...subject,
      failed_deliveries: webhook.failure_count,
      last_sequence: Number(webhook.last_sequence),
    });
    return { disabled: true };
  });
}

function queueOperationalEvent(
  trx: Transaction<DeliveryDatabase>,
  job: ClaimedJob,
  type: OperationalEventType,
  subject: Record<string, unknown>,
): Promise<unknown> {
  return trx
    .insertInto("operational_events")
    .values({ account_id: job.account_id, type, subject_webhook_id: job.webhook_id, subject: JSON.stringify(subject) })
    .execute();
}
