import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("extended_keys")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("zpub", "text", (c) => c.notNull())
    .addColumn("key_material", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("xpub_preview", "text", (c) => c.notNull())
    .addColumn("label", "text")
    .addColumn("next_index", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`next_index >= 0`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // One record per wallet account per client account: registering it again finds this row.
    .addUniqueConstraint("extended_keys_account_key_material", ["account_id", "key_material"])
    // Target of issued_addresses' composite foreign key.
    .addUniqueConstraint("extended_keys_id_account", ["id", "account_id"])
    .execute();
  await db.schema
    .createTable("issued_addresses")
    .addColumn("key_id", "bigint", (c) => c.notNull())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("index", "integer", (c) => c.notNull().check(sql`index >= 0`))
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // The guarantees do not rest on the locking code alone: an index is issued once per key...
    .addPrimaryKeyConstraint("issued_addresses_pk", ["key_id", "index"])
    // ...and an address once per account. Not globally: two accounts may register the same wallet,
    // and then they do derive the same addresses.
    .addUniqueConstraint("issued_addresses_account_address", ["account_id", "address"])
    .addForeignKeyConstraint("issued_addresses_key", ["key_id", "account_id"], "extended_keys", ["id", "account_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("issued_addresses").execute();
  await db.schema.dropTable("extended_keys").execute();
}
