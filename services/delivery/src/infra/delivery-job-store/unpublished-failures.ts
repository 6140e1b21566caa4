import type { deliveryFailed, EventPayload } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

export type FailedJob = Pick<
  EventPayload<typeof deliveryFailed>,
  "webhook_id" | "event_id" | "coin" | "attempts" | "last_status" | "last_error"
> & { id: number };

/** Failed jobs whose `delivery.failed` is not published yet, oldest first. */
export async function readUnpublishedFailures(db: Kysely<DeliveryDatabase>, limit: number): Promise<FailedJob[]> {
  const rows = await db
    .selectFrom("delivery_jobs")
    .select(["id", "webhook_id", "event_id", "coin", "attempts", "last_status", "last_error"])
    .where("status", "=", "failed")
    .where("failure_published_at", "is", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), webhook_id: Number(row.webhook_id) }));
}

/** Marks the failed job's `delivery.failed` published. */
export async function markFailurePublished(db: Kysely<DeliveryDatabase>, jobId: number): Promise<void> {
  await db.updateTable("delivery_jobs").set({ failure_published_at: new Date() }).where("id", "=", jobId).execute();
}
