import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** Marks the job skipped: never sent (its webhook deleted or inactive, see shouldSkipJob). */
export async function markJobSkipped(db: Kysely<DeliveryDatabase>, jobId: number): Promise<void> {
  await db.updateTable("delivery_jobs").set({ status: "skipped", updated_at: new Date() }).where("id", "=", jobId).execute();
}
