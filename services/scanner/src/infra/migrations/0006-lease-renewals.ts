import type { Kysely } from "kysely";

/**
 * Issue 32: a lease holder cut off without FIN or RST keeps its advisory lock for as long as
 * Postgres keeps its session (two hours of TCP keepalive by default). `lease_renewals` is what the
 * holder renews every poll on its lease session: a standby that finds it stale ends that session
 * (the lock goes with it), and every replica reads it to say whether a chain is followed at all.
 * `epoch` grows with each acquisition, so a holder whose lease was taken over cannot renew it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("lease_renewals")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("holder_pid", "integer", (c) => c.notNull())
    .addColumn("epoch", "bigint", (c) => c.notNull())
    .addColumn("renewed_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("lease_renewals").execute();
}
