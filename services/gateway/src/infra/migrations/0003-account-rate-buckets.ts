import { sql, type Kysely } from "kysely";

/**
 * The shared token buckets of the opt-in rate limit per account (over all its keys), one row per
 * account. Unlogged like the key buckets: a crash empties the table, and a missing bucket starts full.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table account_rate_buckets (
      account_id bigint primary key,
      tokens double precision not null,
      refilled_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_rate_buckets").execute();
}
