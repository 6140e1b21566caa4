/**
 * A webhook event history without the service, for bench/delivery's cursor cost (through
 * @chaingate/delivery/testing): the schema over a test database, numbered events written straight
 * in Postgres, and the cursor read the events endpoint runs.
 */
import { sql } from "kysely";
import { createEventHistory, type StoredEvent } from "../infra/event-history.ts";
import { openDeliveryDatabase } from "./open-delivery-database.ts";

const INSERT_ROWS = 100_000;

export interface EventArchive {
  /** A webhook with `count` delivered events numbered 1..count, each body about `bodyBytes` long. */
  createWebhookWithEvents(count: number, bodyBytes: number): Promise<number>;
  /** One page as `GET …/events?after=&limit=` reads it (its bounds, then the page). */
  readPage(webhookId: number, after: number, limit: number): Promise<StoredEvent[]>;
  close(): Promise<void>;
}

export async function openEventArchive(databaseUrl: string): Promise<EventArchive> {
  const database = await openDeliveryDatabase(databaseUrl, "bench-event-cursor");
  const { db } = database;
  const history = createEventHistory(db);
  return {
    async createWebhookWithEvents(count, bodyBytes) {
      const { rows } = await sql<{ id: string }>`
        insert into webhooks (account_id, coin, webhook_url, secret, is_active) values (1, 'BTC', 'http://127.0.0.1:9/', 'whsec_bench', 1)
        returning id`.execute(db);
      const webhookId = Number(rows[0]!.id);
      // In statements of INSERT_ROWS events: one statement of a million would pass the pool's query timeout.
      for (let first = 1; first <= count; first += INSERT_ROWS) {
        const last = Math.min(count, first + INSERT_ROWS - 1);
        await sql`
          insert into delivery_jobs (webhook_id, event_id, coin, sequence, body, status)
          select ${webhookId}, 'evt_' || n, 'BTC', n, '{"event_id":"evt_' || n || '","pad":"' || repeat('x', ${bodyBytes}) || '","sequence":' || n || '}', 'delivered'
            from generate_series(${first}::bigint, ${last}::bigint) n`.execute(db);
      }
      await sql`update webhooks set last_sequence = ${count} where id = ${webhookId}`.execute(db);
      await sql`analyze delivery_jobs`.execute(db);
      return webhookId;
    },
    async readPage(webhookId, after, limit) {
      await history.bounds(webhookId);
      return history.read(webhookId, after, limit);
    },
    close: () => database.close(),
  };
}
