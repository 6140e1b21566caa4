import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** Marks the job skipped: never sent (its webhook deleted, see unsentStatus). */
export async function markJobSkipped(db: Kysely<DeliveryDatabase>, jobId: number): Promise<void> {
  await db.updateTable("delivery_jobs").set({ status: "skipped", updated_at: new Date() }).where("id", "=", jobId).execute();
}

/**
 * Holds the job while its webhook is inactive (see unsentStatus). The webhook's row is read with a
 * share lock: an enable committing meanwhile is waited for and then seen, and the job, which that
 * enable's release of held jobs could not see while it was leased, is made due again instead of
 * being held for a webhook that is active.
 */
export async function markJobHeld(db: Kysely<DeliveryDatabase>, jobId: number, webhookId: number): Promise<void> {
  const { rows } = await sql`
    with inactive as (select id from webhooks where id = ${webhookId} and is_active = 0 and deleted_at is null for share)
    update delivery_jobs j set status = 'held', updated_at = now() from inactive where j.id = ${jobId}
    returning j.id`.execute(db);
  if (!rows.length)
    await db.updateTable("delivery_jobs").set({ next_attempt_at: new Date(), updated_at: new Date() }).where("id", "=", jobId).execute();
}
