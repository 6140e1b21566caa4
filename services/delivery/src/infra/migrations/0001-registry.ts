import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence webhook_version_seq`.execute(db);
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("coin", "text", (c) => c.notNull().check(sql`coin in ('BTC', 'ETH', 'TRX')`))
    .addColumn("webhook_url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("is_active", "smallint", (c) => c.notNull().check(sql`is_active in (0, 1)`))
    .addColumn("xpub_ids", sql`bigint[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("failure_count", "integer", (c) => c.notNull().defaultTo(0))
    // A global sequence: versions only grow, whatever the clock does.
    .addColumn("version", "bigint", (c) => c.notNull().defaultTo(sql`nextval('webhook_version_seq')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deleted_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("webhooks_account")
    .on("webhooks")
    .columns(["account_id", "id"])
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
  await sql`create index webhooks_xpub_ids on webhooks using gin (xpub_ids) where deleted_at is null`.execute(db);
  await db.schema
    .createTable("webhook_addresses")
    .addColumn("webhook_id", "bigint", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("address", "text", (c) => c.notNull())
    // Duplicates collapse: an address is watched once per webhook.
    .addPrimaryKeyConstraint("webhook_addresses_pk", ["webhook_id", "address"])
    .execute();
  await db.schema
    .createTable("webhook_changes")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("webhook_id", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webhook_changes").execute();
  await db.schema.dropTable("webhook_addresses").execute();
  await db.schema.dropTable("webhooks").execute();
  await sql`drop sequence webhook_version_seq`.execute(db);
}
