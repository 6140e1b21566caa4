import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("blocks")
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("height", "bigint", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("parent_hash", "text")
    .addColumn("time_ms", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("blocks_pk", ["coin", "height"])
    .execute();
  await db.schema
    .createTable("matches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("height", "bigint", (c) => c.notNull())
    .addColumn("block_hash", "text", (c) => c.notNull())
    .addColumn("time_ms", "bigint", (c) => c.notNull())
    .addColumn("match", "jsonb", (c) => c.notNull())
    .addColumn("due_height", "bigint", (c) => c.notNull())
    .addColumn("published_confirmations", "integer")
    .execute();
  await db.schema.createIndex("matches_coin_height").on("matches").columns(["coin", "height"]).execute();
  // Pending matches are few; the partial index keeps the per-block "what is due" probe cheap.
  await db.schema
    .createIndex("matches_pending")
    .on("matches")
    .columns(["coin", "due_height"])
    .where(sql.ref("published_confirmations"), "is", null)
    .execute();
  await sql`create sequence webhook_change_seq`.execute(db);
  await db.schema
    .createTable("webhooks")
    .addColumn("webhook_id", "bigint", (c) => c.primaryKey())
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("addresses", "jsonb", (c) => c.notNull())
    .addColumn("is_active", "boolean", (c) => c.notNull())
    .addColumn("deleted", "boolean", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("confirmations", "integer")
    .addColumn("include_tokens", "boolean")
    .addColumn("change_seq", "bigint", (c) => c.notNull().defaultTo(sql`nextval('webhook_change_seq')`))
    .execute();
  await db.schema.createIndex("webhooks_change_seq").on("webhooks").column("change_seq").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webhooks").execute();
  await sql`drop sequence webhook_change_seq`.execute(db);
  await db.schema.dropTable("matches").execute();
  await db.schema.dropTable("blocks").execute();
}
