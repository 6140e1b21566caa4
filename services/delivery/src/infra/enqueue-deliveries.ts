/**
 * Stores the delivery jobs of a batch of `transfer.matched` events in one statement (the consumer
 * acks them only after this). The notification body is the event payload as JSON: one job per
 * (webhook, event id), so a redelivered or republished event is stored once, also when both copies
 * are in the same batch. Events for a webhook this registry does not know are dropped. Each job
 * keeps the `traceparent` of its message, so its attempts continue the event's trace.
 */
import type { Coin, EventPayload, transferMatched } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";

export type TransferMatched = EventPayload<typeof transferMatched>;

export interface JobToStore {
  event: TransferMatched;
  traceparent: string | null;
}

/** The coin of each new job stored (duplicates and unknown webhooks store none). */
export async function enqueueDeliveries(db: Kysely<DeliveryDatabase>, jobs: readonly JobToStore[]): Promise<Coin[]> {
  if (!jobs.length) return [];
  const { rows } = await sql<{ coin: Coin }>`
    insert into delivery_jobs (webhook_id, event_id, coin, body, traceparent)
    select w.id, e.event_id, e.coin, e.body, e.traceparent
      from unnest(${jobs.map((j) => j.event.webhook_id)}::bigint[], ${jobs.map((j) => j.event.event_id)}::text[], ${jobs.map((j) => j.event.coin)}::text[],
                  ${jobs.map((j) => JSON.stringify(j.event))}::text[], ${jobs.map((j) => j.traceparent)}::text[]) as e(webhook_id, event_id, coin, body, traceparent)
      join webhooks w on w.id = e.webhook_id
    on conflict (webhook_id, event_id) do nothing
    returning coin`.execute(db);
  return rows.map((row) => row.coin);
}
