/**
 * Stores events as delivery jobs, each numbered in its webhook's history (issue #30), inside the
 * caller's transaction: the events' webhooks are locked in id order (writers never deadlock on
 * them), the events already stored are left out under those locks, and each new one takes its
 * webhook's next number in the order given, written into the body it is stored with. Writers of
 * one webhook's events queue on its row; other webhooks' do not wait. An inactive webhook's events
 * are stored `held` (numbered and readable, pushed only if it is enabled again with held_events
 * push); events for a webhook this registry does not know are dropped.
 */
import type { Coin } from "@chaingate/contracts";
import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";

export interface EventToStore {
  webhookId: number;
  eventId: string;
  /** The notification without its `sequence`, which is added here. */
  body: object;
  /** W3C traceparent the job's attempts continue, if any. */
  traceparent: string | null;
}

export interface StoredJobs {
  /** The coin (of its webhook) of each new job stored; duplicates and unknown webhooks store none. */
  stored: Coin[];
  /** How many of them are to be sent now (an inactive webhook's are held). */
  queued: number;
}

interface LockedWebhook {
  lastSequence: number;
  active: boolean;
  coin: Coin;
}

interface NumberedJob extends EventToStore {
  coin: Coin;
  sequence: number;
  status: "pending" | "held";
}

export async function storeNumberedJobs(trx: Transaction<DeliveryDatabase>, events: readonly EventToStore[]): Promise<StoredJobs> {
  if (!events.length) return { stored: [], queued: 0 };
  const webhookIds = [...new Set(events.map((event) => event.webhookId))].sort((a, b) => a - b);
  const { rows: locked } = await sql<{ id: number; last_sequence: number; is_active: number; coin: Coin }>`
    select id, last_sequence, is_active, coin from webhooks where id = any(${webhookIds}::bigint[]) order by id for update`.execute(trx);
  const webhooks = new Map(
    locked.map((row) => [Number(row.id), { lastSequence: Number(row.last_sequence), active: Number(row.is_active) === 1, coin: row.coin }]),
  );
  const { rows: existing } = await sql<{ webhook_id: number; event_id: string }>`
    select d.webhook_id, d.event_id from delivery_jobs d
      join unnest(${events.map((e) => e.webhookId)}::bigint[], ${events.map((e) => e.eventId)}::text[]) as e(webhook_id, event_id)
        on d.webhook_id = e.webhook_id and d.event_id = e.event_id`.execute(trx);
  const numbered = numberNewEvents(events, webhooks, new Set(existing.map((row) => `${row.webhook_id}:${row.event_id}`)));
  if (!numbered.length) return { stored: [], queued: 0 };
  await sql`
    insert into delivery_jobs (webhook_id, event_id, coin, sequence, body, traceparent, status)
    select * from unnest(${numbered.map((j) => j.webhookId)}::bigint[], ${numbered.map((j) => j.eventId)}::text[],
                         ${numbered.map((j) => j.coin)}::text[], ${numbered.map((j) => j.sequence)}::bigint[],
                         ${numbered.map((j) => JSON.stringify({ ...j.body, sequence: j.sequence }))}::text[],
                         ${numbered.map((j) => j.traceparent)}::text[], ${numbered.map((j) => j.status)}::text[])`.execute(trx);
  const newest = [...webhooks];
  await sql`
    update webhooks w set last_sequence = n.last_sequence
      from unnest(${newest.map(([id]) => id)}::bigint[], ${newest.map(([, webhook]) => webhook.lastSequence)}::bigint[]) as n(id, last_sequence)
     where w.id = n.id and w.last_sequence < n.last_sequence`.execute(trx);
  return { stored: numbered.map((job) => job.coin), queued: numbered.filter((job) => job.status === "pending").length };
}

/**
 * The events that are new, each with its webhook's next number (`webhooks` is advanced in place).
 * Unknown webhooks, events already stored and second copies among `events` are left out.
 */
function numberNewEvents(events: readonly EventToStore[], webhooks: Map<number, LockedWebhook>, stored: Set<string>): NumberedJob[] {
  const numbered: NumberedJob[] = [];
  for (const event of events) {
    const webhook = webhooks.get(event.webhookId);
    const key = `${event.webhookId}:${event.eventId}`;
    if (!webhook || stored.has(key)) continue;
    stored.add(key);
    webhook.lastSequence += 1;
    numbered.push({ ...event, coin: webhook.coin, sequence: webhook.lastSequence, status: webhook.active ? "pending" : "held" });
  }
  return numbered;
}
