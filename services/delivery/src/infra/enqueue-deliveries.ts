/**
 * Stores the delivery jobs of a batch of `transfer.matched` events in one transaction (the consumer
 * acks them only after it), numbered in their webhooks' histories (store-numbered-jobs.ts). The
 * notification body is the event completed for its webhook (transfer-notification.ts: its version,
 * and the extended key that issued the watched address, read in the same transaction) plus its
 * `sequence`: one job per (webhook, event id), so a redelivered or republished event is stored once,
 * also when both copies are in the same batch. Each job keeps the `traceparent` of its message, so
 * its attempts continue the event's trace.
 */
import type { Kysely } from "kysely";
import { issuingKeyLookup, transferNotificationBody, type TransferMatched } from "../domain/transfer-notification.ts";
import type { DeliveryDatabase } from "./database-schema.ts";
import { readIssuingKeys } from "./read-issuing-keys.ts";
import { storeNumberedJobs, type StoredJobs } from "./store-numbered-jobs.ts";

export type { TransferMatched };

export interface JobToStore {
  event: TransferMatched;
  traceparent: string | null;
}

export function enqueueDeliveries(db: Kysely<DeliveryDatabase>, jobs: readonly JobToStore[]): Promise<StoredJobs> {
  if (!jobs.length) return Promise.resolve({ stored: [], queued: 0 });
  return db.transaction().execute(async (trx) => {
    const keys = await readIssuingKeys(
      trx,
      jobs.map(({ event }) => ({ webhookId: event.webhook_id, address: event.watched_address })),
    );
    return storeNumberedJobs(
      trx,
      jobs.map(({ event, traceparent }) => ({
        webhookId: event.webhook_id,
        eventId: event.event_id,
        body: transferNotificationBody(event, keys.get(issuingKeyLookup(event.webhook_id, event.watched_address)) ?? null),
        traceparent,
      })),
    );
  });
}
