import { sql, type Kysely } from "kysely";

/**
 * The outbox of operational events (issue #30): `delivery.exhausted` (a transfer's delivery used up
 * its attempts) and `webhook.disabled` (20 failed deliveries in a row), written in the transaction
 * that records the failure, then fanned out to the account's webhooks as numbered jobs by the
 * delivery loop (so the recording transaction never locks other webhooks). Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table operational_events (
      id bigserial primary key,
      account_id bigint not null,
      type text not null,
      subject_webhook_id bigint not null,
      subject jsonb not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table operational_events`.execute(db);
}
