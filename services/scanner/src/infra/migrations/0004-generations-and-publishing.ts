import { sql, type Kysely } from "kysely";

/**
 * Issue 16: a transfer reverted and then notified again (back in the same block, or in another)
 * comes under a higher generation, so the follower counts reverts per transfer key
 * (`reverted_transfers`, kept 30 days after the last revert), and each match row carries the
 * generation it was published under.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table matches add column generation integer not null default 0`.execute(db);
  await db.schema
    .createTable("reverted_transfers")
    .addColumn("coin", "text", (c) => c.notNull())
    /** transferKey(match): the transfer to a webhook, whichever block it is in. */
    .addColumn("transfer_key", "text", (c) => c.notNull())
    .addColumn("reverts", "integer", (c) => c.notNull())
    .addColumn("reverted_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("reverted_transfers_pk", ["coin", "transfer_key"])
    .execute();
  await db.schema.createIndex("reverted_transfers_reverted_at").on("reverted_transfers").columns(["coin", "reverted_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("reverted_transfers").execute();
  await sql`alter table matches drop column generation`.execute(db);
}
