/**
 * Stores the delivery job of a `transfer.matched` event (the consumer acks only after this). The
 * notification body is the event payload as JSON: one job per (webhook, event id), so a redelivered
 * or republished event is stored once. Events for a webhook this registry does not know are dropped.
 */
import type { EventPayload, transferMatched } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";

export type TransferMatched = EventPayload<typeof transferMatched>;

/** True when a new job was stored. */
export async function enqueueDelivery(db: Kysely<DeliveryDatabase>, event: TransferMatched | (Omit<TransferMatched, "type"> & { type: string })): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    insert into delivery_jobs (webhook_id, event_id, coin, body)
    select id, ${event.event_id}, ${event.coin}, ${JSON.stringify(event)} from webhooks where id = ${event.webhook_id}
    on conflict (webhook_id, event_id) do nothing
    returning id`.execute(db);
  return rows.length > 0;
}
