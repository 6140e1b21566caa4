/**
 * A webhook's numbered events, read by cursor: one index range scan of `(webhook_id, sequence)`
 * per page, so a page costs the same at the millionth event as at the first.
 */
import type { Kysely } from "kysely";
import type { DeliveryDatabase, JobStatus } from "./database-schema.ts";

export interface StoredEvent {
  sequence: number;
  event_id: string;
  delivery_id: number;
  status: JobStatus;
  created_at: Date;
  body: string;
}

export interface EventHistoryBounds {
  /** The newest sequence given (0: none yet). */
  newest: number;
  /** The newest sequence the retention deleted (0: none). */
  prunedThrough: number;
}

export type EventHistory = ReturnType<typeof createEventHistory>;

export function createEventHistory(db: Kysely<DeliveryDatabase>) {
  return {
    async bounds(webhookId: number): Promise<EventHistoryBounds> {
      const row = await db
        .selectFrom("webhooks")
        .select(["last_sequence", "pruned_through"])
        .where("id", "=", webhookId)
        .executeTakeFirstOrThrow();
      return { newest: Number(row.last_sequence), prunedThrough: Number(row.pruned_through) };
    },

    /** At most `limit` events numbered after `after`, in sequence order. */
    async read(webhookId: number, after: number, limit: number): Promise<StoredEvent[]> {
      const rows = await db
        .selectFrom("delivery_jobs")
        .select(["sequence", "event_id", "id", "status", "created_at", "body"])
        .where("webhook_id", "=", webhookId)
        .where("sequence", ">", after)
        .orderBy("sequence")
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        sequence: Number(row.sequence),
        event_id: row.event_id,
        delivery_id: Number(row.id),
        status: row.status,
        created_at: row.created_at,
        body: row.body,
      }));
    },
  };
}
