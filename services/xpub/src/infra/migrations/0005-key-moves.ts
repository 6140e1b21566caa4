import { sql, type Kysely } from "kysely";

/**
 * The operator's record moves (`xpub-admin keys move`), one row each: which record went from which
 * account to which, when, and at which counter. A move changes who owns a key's addresses, so it is
 * kept for the operator (and is what `keys find` shows), never deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("key_moves")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("key_id", "bigint", (c) => c.notNull().references("extended_keys.id"))
    .addColumn("from_account_id", "bigint", (c) => c.notNull())
    .addColumn("to_account_id", "bigint", (c) => c.notNull())
    .addColumn("next_index", "integer", (c) => c.notNull())
    .addColumn("moved_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("key_moves_key").on("key_moves").columns(["key_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("key_moves").execute();
}
