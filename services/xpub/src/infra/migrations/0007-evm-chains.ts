import { sql, type Kysely } from "kysely";

/**
 * Records of configured EVM chains (issue #31: EVM_CHAINS, `chain` = the chain's coin, POLYGON).
 * `kind` says whose addresses a key derives: every EVM chain derives the same addresses from one
 * key (m/44'/60'/account'/0/i), so one key may hold one record over all EVM chains together, or two
 * chains would hand the same address to two customers. Expand only: an older release never reads
 * `kind` (generated from `chain`) and writes only BTC and ETH.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("extended_keys").dropConstraint("extended_keys_chain_check").execute();
  await db.schema
    .alterTable("extended_keys")
    .addCheckConstraint("extended_keys_chain_coin", sql`chain ~ '^[A-Z][A-Z0-9]{1,19}$'`)
    .execute();
  // Generated: an older release writing BTC or ETH rows without it still gets it right.
  await sql`
    alter table extended_keys add column kind text not null
    generated always as (case when chain = 'BTC' then 'bitcoin' else 'evm' end) stored
  `.execute(db);
  await db.schema
    .createIndex("extended_keys_kind_key_material_holder")
    .on("extended_keys")
    .columns(["kind", "key_material"])
    .unique()
    .where(sql.ref("duplicate_of"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("extended_keys_kind_key_material_holder").execute();
  await db.schema.alterTable("extended_keys").dropColumn("kind").execute();
  await db.schema.alterTable("extended_keys").dropConstraint("extended_keys_chain_coin").execute();
  // Not validated: records of configured chains stay (unserved) until an upgrade serves them again.
  await sql`alter table extended_keys add constraint extended_keys_chain_check check (chain in ('BTC', 'ETH')) not valid`.execute(db);
}
