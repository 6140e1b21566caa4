import { sql, type Kysely } from "kysely";

/**
 * Pending (mempool) events (issue #29): `pending`, whether the webhook also wants transfers seen in
 * the node's mempool before any block. False keeps the earlier behaviour, so every existing webhook
 * gets it. Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column pending boolean not null default false`.execute(db);
  // Tron nodes have no public mempool: the API refuses it, and so does the table.
  await sql`alter table webhooks add constraint webhooks_pending check (coin <> 'TRX' or not pending)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column pending`.execute(db);
}
