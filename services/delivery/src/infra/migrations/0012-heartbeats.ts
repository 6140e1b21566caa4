import { sql, type Kysely } from "kysely";

/**
 * Opt-in coverage heartbeats per webhook (issue #30): `heartbeat_blocks` (null: none). Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column heartbeat_blocks integer check (heartbeat_blocks between 1 and 10000)`.execute(db);
  // The coverage producer reads the webhooks that want heartbeats on a chain at every block.
  await sql`create index webhooks_heartbeats on webhooks (coin) where heartbeat_blocks is not null and deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhooks_heartbeats`.execute(db);
  await sql`alter table webhooks drop column heartbeat_blocks`.execute(db);
}
