import { sql, type Kysely } from "kysely";

/**
 * Secret rotation with an overlap (issue #30): the secret a rotation replaced keeps signing, beside
 * the new one, until `previous_secret_until`, so a receiver can switch keys without refusing a
 * delivery. Expand only: a release without it signs with `secret` alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column previous_secret text`.execute(db);
  await sql`alter table webhooks add column previous_secret_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column previous_secret_until`.execute(db);
  await sql`alter table webhooks drop column previous_secret`.execute(db);
}
