import { sql, type Kysely } from "kysely";

/** Records get a chain (Bitcoin and Ethereum keys live side by side); uniqueness is per chain. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("extended_keys")
    .addColumn("chain", "text", (c) =>
      c
        .notNull()
        .defaultTo("BTC")
        .check(sql`chain in ('BTC', 'ETH')`),
    )
    .execute();
  await db.schema.alterTable("extended_keys").dropConstraint("extended_keys_account_key_material").execute();
  await db.schema
    .alterTable("extended_keys")
    .addUniqueConstraint("extended_keys_account_chain_key_material", ["account_id", "chain", "key_material"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("extended_keys").dropConstraint("extended_keys_account_chain_key_material").execute();
  await db.schema
    .alterTable("extended_keys")
    .addUniqueConstraint("extended_keys_account_key_material", ["account_id", "key_material"])
    .execute();
  await db.schema.alterTable("extended_keys").dropColumn("chain").execute();
}
