import { sql, type Kysely } from "kysely";

/**
 * Issue 16 item 7: the scanner does not match blocks against a watch list older than the
 * registry's state. `watch_watermark` keeps the newest registry watermark the projection holds;
 * `pending_rescans` the addresses that became watched (with since when), written in the same
 * transaction as the feed message that brought them, so a follower rescans the kept blocks it
 * matched without them even across a crash; `blocks.matched_at_ms` says when a block was matched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table watch_watermark (id smallint primary key check (id = 1), registry_time_ms bigint not null)`.execute(db);
  await db.schema
    .createTable("pending_rescans")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("webhook_id", "bigint", (c) => c.notNull())
    // null: every address the webhook watches (it started being watched).
    .addColumn("addresses", "jsonb")
    .addColumn("since_ms", "bigint", (c) => c.notNull())
    .execute();
  await sql`alter table blocks add column matched_at_ms bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table blocks drop column matched_at_ms`.execute(db);
  await db.schema.dropTable("pending_rescans").execute();
  await db.schema.dropTable("watch_watermark").execute();
}
