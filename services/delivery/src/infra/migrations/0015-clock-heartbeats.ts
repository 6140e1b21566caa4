import { sql, type Kysely } from "kysely";

/**
 * Coverage heartbeats by the clock (issue #30): `heartbeat_seconds` (null: none) and when the next
 * one is due; `processed_tips`, the newest block the scanner processed per chain, as
 * `block.processed` told it, which a clock heartbeat covers. Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column heartbeat_seconds integer check (heartbeat_seconds between 10 and 86400)`.execute(db);
  await sql`alter table webhooks add column heartbeat_due_at timestamptz`.execute(db);
  // Each tick reads the webhooks whose clock heartbeat is due.
  await sql`create index webhooks_clock_heartbeats on webhooks (heartbeat_due_at) where heartbeat_seconds is not null and deleted_at is null`.execute(
    db,
  );
  await sql`
    create table processed_tips (
      coin text primary key check (coin in ('BTC', 'ETH', 'TRX')),
      chain text,
      height bigint not null,
      hash text not null,
      block_time timestamptz not null,
      processed_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table processed_tips`.execute(db);
  await sql`drop index webhooks_clock_heartbeats`.execute(db);
  await sql`alter table webhooks drop column heartbeat_due_at`.execute(db);
  await sql`alter table webhooks drop column heartbeat_seconds`.execute(db);
}
