import { sql, type Kysely } from "kysely";

/**
 * `chain_state`, one row per coin: the chain identity of the node the kept blocks were read from
 * (checked at every follower start and on every node failover), where a follower without a cursor
 * starts, and the operator's reset requests (`scanner-admin reset`): a request bumps
 * `reset_requested`; the follower holding the chain's lease applies it and records
 * `reset_applied`. Existing cursors adopt the identity of the node they next meet (no row yet).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table chain_state (
      coin text primary key,
      identity text,
      start_height bigint,
      reset_requested bigint not null default 0,
      reset_applied bigint not null default 0,
      reset_from bigint,
      reset_requested_at timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table chain_state`.execute(db);
}
