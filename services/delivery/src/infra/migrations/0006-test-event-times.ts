import { sql, type Kysely } from "kysely";

/**
 * A webhook keeps the times of its recent test events (at most the per-minute quota of them), so
 * the rate check is one locked row read, whatever the size of its delivery log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column test_event_times timestamptz[] not null default '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column test_event_times`.execute(db);
}
