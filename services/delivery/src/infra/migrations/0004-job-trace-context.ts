import type { Kysely } from "kysely";

/**
 * A job keeps the W3C `traceparent` of the `transfer.matched` message it was stored from, so its
 * attempts (possibly hours later, in another process) continue the trace that began at the
 * scanner's block. Null for jobs without one (test events, jobs stored before this column).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("delivery_jobs").addColumn("traceparent", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("delivery_jobs").dropColumn("traceparent").execute();
}
