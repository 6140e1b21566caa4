import { sql, type Kysely } from "kysely";

/**
 * Issue #29: the projection keeps each webhook's `pending` setting; `mempool_transfers` holds the
 * transfers announced from the mempool until their outcome; matches are found by txid, so a
 * transaction already matched in a block is never announced as pending.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column pending boolean not null default false`.execute(db);
  await db.schema
    .createTable("mempool_transfers")
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("transfer_key", "text", (c) => c.notNull())
    .addColumn("generation", "integer", (c) => c.notNull())
    .addColumn("webhook_id", "integer", (c) => c.notNull())
    .addColumn("txid", "text", (c) => c.notNull())
    .addColumn("event", "jsonb", (c) => c.notNull())
    .addColumn("spends", sql`text[]`, (c) => c.notNull())
    .addColumn("left_at_ms", "bigint")
    .addColumn("outcome", "text")
    .addColumn("decided_at_ms", "bigint")
    .addPrimaryKeyConstraint("mempool_transfers_pkey", ["coin", "transfer_key", "generation"])
    .execute();
  await sql`create index mempool_transfers_open on mempool_transfers (coin) where outcome is null`.execute(db);
  await sql`create index matches_txid on matches (coin, (match->'transfer'->>'txid'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index matches_txid`.execute(db);
  await db.schema.dropTable("mempool_transfers").execute();
  await sql`alter table webhooks drop column pending`.execute(db);
}
