import { sql, type Kysely } from "kysely";

/**
 * An extended key (its public key + chain code, per chain) belongs to one account: two accounts
 * issuing from one key hand out the same addresses, and one payment would notify both.
 *
 * Databases from before this rule may already hold such keys under several accounts. The oldest
 * record keeps the key; each later one gets `duplicate_of` (the holder's id) and can no longer
 * issue. The service logs the flagged ids at every start. The partial unique index then makes a
 * second holder impossible, also for concurrent registrations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("extended_keys")
    .addColumn("duplicate_of", "bigint", (c) => c.references("extended_keys.id"))
    .execute();
  await sql`
    update extended_keys as later
    set duplicate_of = holder.id
    from (
      select distinct on (chain, key_material) id, chain, key_material, created_at
      from extended_keys
      order by chain, key_material, created_at, id
    ) as holder
    where later.chain = holder.chain
      and later.key_material = holder.key_material
      and later.id <> holder.id
  `.execute(db);
  await db.schema
    .createIndex("extended_keys_chain_key_material_holder")
    .on("extended_keys")
    .columns(["chain", "key_material"])
    .unique()
    .where(sql.ref("duplicate_of"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("extended_keys_chain_key_material_holder").execute();
  await db.schema.alterTable("extended_keys").dropColumn("duplicate_of").execute();
}
