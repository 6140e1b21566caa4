import { sql, type Kysely } from "kysely";

/**
 * Any-token reporting (issue #31): `all_tokens`, whether the webhook wants every ERC-20 Transfer,
 * of any contract, beside its chain's token list. False keeps the earlier behaviour, so every
 * existing webhook gets it. Only EVM chains have ERC-20 logs: the API refuses it for BTC and TRX,
 * and so does the table. Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column all_tokens boolean not null default false`.execute(db);
  await sql`alter table webhooks add constraint webhooks_all_tokens check (coin not in ('BTC', 'TRX') or not all_tokens)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column all_tokens`.execute(db);
}
