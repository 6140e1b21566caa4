import { sql, type Kysely } from "kysely";

/**
 * The event contract (issue #30): a transfer to an address chaingate issued names its extended key
 * and the address's derivation index. `address_index` is kept from every `address.issued` and key
 * history page (rows from before stay null until one of those names them again); the index on
 * `address` lets a batch of transfers find their keys. Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table issued_addresses add column address_index integer`.execute(db);
  await sql`create index issued_addresses_by_address on issued_addresses (address)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index issued_addresses_by_address`.execute(db);
  await sql`alter table issued_addresses drop column address_index`.execute(db);
}
