import { sql, type Kysely } from "kysely";

/**
 * Issued addresses are their own outbox: written with `published_at` null in the issuing
 * transaction, relayed to JetStream (`address.issued.<coin>`) afterwards, then stamped. An address is
 * never issued without its event eventually being published, whatever dies in between.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("issued_addresses").addColumn("published_at", "timestamptz").execute();
  // Addresses issued before the relay existed count as published: nobody was waiting for them.
  await sql`update issued_addresses set published_at = created_at`.execute(db);
  await db.schema
    .createIndex("issued_addresses_unpublished")
    .on("issued_addresses")
    .columns(["key_id", "index"])
    .where(sql.ref("published_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("issued_addresses_unpublished").execute();
  await db.schema.alterTable("issued_addresses").dropColumn("published_at").execute();
}
