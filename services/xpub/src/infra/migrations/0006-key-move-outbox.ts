import { sql, type Kysely } from "kysely";

/**
 * Record moves are their own outbox (`key.moved.<coin>`, so the delivery service hands the key's
 * addresses to the new account): `published_at` null until the relay published the move. Expand
 * only: a release without the relay writes moves as before, and the next one relays them. Moves made
 * before this migration stay unpublished on purpose: relayed at the first start, they fix the
 * webhooks those moves left watching the old account's view.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("key_moves").addColumn("published_at", "timestamptz").execute();
  await db.schema.createIndex("key_moves_unpublished").on("key_moves").column("id").where(sql.ref("published_at"), "is", null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("key_moves_unpublished").execute();
  await db.schema.alterTable("key_moves").dropColumn("published_at").execute();
}
