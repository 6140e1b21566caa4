/**
 * Operational events (issue #30), as Svix and Convoy send them, numbered in each receiving webhook's
 * history like transfers:
 * - `delivery.exhausted`: a transfer's (or revert's) delivery used up its attempts. Sent to the
 *   account's other webhooks (the failing endpoint is the one not answering); not for a 410, which
 *   is the receiver's own "stop retrying this event", nor for test or operational events (so one
 *   failing operational event never causes another).
 * - `webhook.disabled`: a webhook was disabled after AUTO_DISABLE_FAILURES failed deliveries in a
 *   row. Sent to the account's other webhooks, and stored in the disabled webhook's own history
 *   (held while it is off, pushed with its backlog when it is enabled again).
 */
import { NOTIFICATION_VERSION } from "@chaingate/contracts";
import type { JobDecision } from "./attempt-outcome.ts";
import { TEST_EVENT_PREFIX } from "./attempt-outcome.ts";

export const OPERATIONAL_EVENT_PREFIX = "evt_op_";

export type OperationalEventType = "delivery.exhausted" | "webhook.disabled";

/** Whether a failed job reports `delivery.exhausted`: a transfer or revert whose attempts ran out (not a 410). */
export function reportsExhaustion(eventId: string, decision: Exclude<JobDecision, { status: "delivered" }>): boolean {
  if (decision.status !== "failed" || decision.outcome === "gone") return false;
  return !eventId.startsWith(TEST_EVENT_PREFIX) && !eventId.startsWith(OPERATIONAL_EVENT_PREFIX);
}

/** The webhooks an operational event about `subjectWebhookId` goes to, of the account's live ones. */
export function operationalEventRecipients(
  type: OperationalEventType,
  subjectWebhookId: number,
  accountWebhookIds: readonly number[],
): number[] {
  return type === "webhook.disabled" ? [...accountWebhookIds] : accountWebhookIds.filter((id) => id !== subjectWebhookId);
}

/** One recipient's copy: its own event id (receivers deduplicate by it) and body. */
export function operationalEventBody(
  outboxId: number,
  type: OperationalEventType,
  recipientWebhookId: number,
  subject: Record<string, unknown>,
  createdAt: Date,
): {
  event_id: string;
  type: OperationalEventType;
  version: typeof NOTIFICATION_VERSION;
  webhook_id: number;
  subject: Record<string, unknown>;
  created_at: string;
} {
  return {
    event_id: `${OPERATIONAL_EVENT_PREFIX}${outboxId}_${recipientWebhookId}`,
    type,
    version: NOTIFICATION_VERSION,
    webhook_id: recipientWebhookId,
    subject,
    created_at: createdAt.toISOString(),
  };
}
