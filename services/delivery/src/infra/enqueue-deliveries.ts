/**
 * Stores the delivery jobs of a batch of `transfer.matched` events in one transaction (the consumer
 * acks them only after it), numbered in their webhooks' histories (store-numbered-jobs.ts). The
 * notification body is the event payload as JSON plus its `sequence`: one job per (webhook, event
 * id), so a redelivered or republished event is stored once, also when both copies are in the same
 * batch. Each job keeps the `traceparent` of its message, so its attempts continue the event's trace.
 */
import type { EventPayload, transferMatched } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";
import { storeNumberedJobs, type StoredJobs } from "./store-numbered-jobs.ts";

export type TransferMatched = EventPayload<typeof transferMatched>;

export interface JobToStore {
  event: TransferMatched;
  traceparent: string | null;
}

export function enqueueDeliveries(db: Kysely<DeliveryDatabase>, jobs: readonly JobToStore[]): Promise<StoredJobs> {
  if (!jobs.length) return Promise.resolve({ stored: [], queued: 0 });
  return db.transaction().execute((trx) =>
    storeNumberedJobs(
      trx,
      jobs.map(({ event, traceparent }) => ({ webhookId: event.webhook_id, eventId: event.event_id, body: event, traceparent })),
    ),
  );
}
