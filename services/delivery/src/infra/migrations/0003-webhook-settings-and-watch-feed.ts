import { sql, type Kysely } from "kysely";

/**
 * Per-webhook notification settings: `confirmations` (1 = notified when the block is processed, the
 * v1 behaviour) and `include_tokens` (ETH chooses; BTC never; TRX always, as the spec reports
 * TRC-10/20 transfers: existing TRX rows become true).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column confirmations integer not null default 1 check (confirmations >= 1)`.execute(db);
  await sql`alter table webhooks add column include_tokens boolean not null default false`.execute(db);
  await sql`update webhooks set include_tokens = true where coin = 'TRX'`.execute(db);
  await sql`alter table webhooks add constraint webhooks_include_tokens check (coin = 'ETH' or include_tokens = (coin = 'TRX'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column include_tokens, drop column confirmations`.execute(db);
}
