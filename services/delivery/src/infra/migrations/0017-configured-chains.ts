import { sql, type Kysely } from "kysely";

/**
 * Webhooks of configured EVM chains (issue #31: EVM_CHAINS, `coin` = the chain's name in capitals):
 * the coin columns take any coin as the registry writes one (which coins a deployment serves is
 * its configuration, checked by the API), and `include_tokens` is the webhook's choice on every
 * chain but Bitcoin (never) and Tron (always). Widens checks only: every existing row passes.
 */
const COIN_FORMAT = sql`~ '^[A-Z][A-Z0-9]{1,19}$'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["webhooks", "issued_addresses", "processed_tips"]) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_coin_check`)}`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_coin_check`)} check (coin ${COIN_FORMAT})`.execute(db);
  }
  await sql`alter table webhooks drop constraint webhooks_include_tokens`.execute(db);
  await sql`alter table webhooks add constraint webhooks_include_tokens check ((coin <> 'BTC' or not include_tokens) and (coin <> 'TRX' or include_tokens))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop constraint webhooks_include_tokens`.execute(db);
  await sql`alter table webhooks add constraint webhooks_include_tokens check (coin = 'ETH' or include_tokens = (coin = 'TRX'))`.execute(
    db,
  );
  for (const table of ["webhooks", "issued_addresses", "processed_tips"]) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_coin_check`)}`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_coin_check`)} check (coin in ('BTC', 'ETH', 'TRX'))`.execute(
      db,
    );
  }
}
