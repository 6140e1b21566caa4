import { sql, type Kysely } from "kysely";

/**
 * The shared token buckets of the opt-in rate limit, one row per key. Unlogged: a crash empties the
 * table, and a missing bucket starts full, as an idle key's would be.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table key_rate_buckets (
      api_key_id bigint primary key,
      tokens double precision not null,
      refilled_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("key_rate_buckets").execute();
}
