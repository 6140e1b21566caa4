/**
 * Which deliveries `POST /webhooks/{id}/deliveries/{d}/retry` may queue again, and its refusal. A
 * finished delivery may: a failed one (the endpoint is fixed), a delivered one (the subscriber
 * lost it: a replay, same event id), a skipped one (the webhook is active again) and a held one
 * (stored while the webhook was inactive: held again if it still is). A pending one
 * (queued, waiting for its next attempt, or being sent) may not: it is already on its way, and
 * queueing it again would send it a second time alongside.
 *
 * The retry keeps the attempt count: its attempt is the delivery's next, and the retry schedule
 * goes on only while attempts remain (MAX_ATTEMPTS in retry-schedule.ts), so retries never buy a
 * fresh schedule; past it, each retry is one attempt. Re-sending a test event is a test event:
 * it takes a place in the webhook's per-minute test event quota.
 */
import { ChaingateError } from "@chaingate/errors";

export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped" | "held";

export const RETRYABLE_STATUSES = ["delivered", "failed", "skipped", "held"] as const satisfies readonly DeliveryStatus[];

export const RETRY_CONFLICT_MESSAGE =
  "This delivery is already queued or being sent; retry it once it has been delivered, has failed or was skipped.";

/** A retry of a delivery that is still pending: 409 `{message, status}`. */
export class DeliveryPendingError extends ChaingateError {
  override name = "DeliveryPendingError" as const;
  readonly status: DeliveryStatus;
  constructor(status: DeliveryStatus) {
    super("delivery_pending", RETRY_CONFLICT_MESSAGE);
    this.status = status;
  }
}

export function isRetryable(status: DeliveryStatus): boolean {
  return (RETRYABLE_STATUSES as readonly DeliveryStatus[]).includes(status);
}
