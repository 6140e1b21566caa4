import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("accounts")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull().references("accounts.id"))
    .addColumn("prefix", "text", (c) => c.notNull().unique())
    .addColumn("secret_hash", "bytea", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deactivated_at", "timestamptz")
    .execute();
  await db.schema.createIndex("api_keys_account_id").on("api_keys").column("account_id").execute();
  await db.schema
    .createTable("api_key_usage")
    .addColumn("api_key_id", "bigint", (c) => c.notNull().references("api_keys.id"))
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("endpoint_group", "text", (c) => c.notNull())
    .addColumn("request_count", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("api_key_usage_pk", ["api_key_id", "day", "endpoint_group"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("api_key_usage").execute();
  await db.schema.dropTable("api_keys").execute();
  await db.schema.dropTable("accounts").execute();
}
