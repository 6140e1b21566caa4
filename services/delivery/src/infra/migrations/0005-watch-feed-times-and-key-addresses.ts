import { sql, type Kysely } from "kysely";

/**
 * 1. Registry times for the scanner's watermark gate and late-address rescan (issue 16):
 *    `webhook_changes.created_at` (the writer's transaction start, never later than its commit),
 *    `webhooks.active_since` (when the webhook last started being watched: created or activated
 *    again) and `webhook_addresses.watched_since` (set for an address watched through an extended
 *    key: its issuance time, which can be earlier than its insert). The insert trigger gives the
 *    outbox row of a slot the earliest of now() and its new addresses' `watched_since`.
 *    Rows queued before this migration take their webhook's creation time: the only time known to
 *    be no later than their commit, so the watermark never passes them before they are relayed.
 * 2. Addresses watched through `xpub_ids` kept apart from the client's own list: `listed` says the
 *    client named the address (every existing row: no watched address is lost), and
 *    `issued_addresses` records every `address.issued` the registry consumes, per key, so setting
 *    `xpub_ids` later watches the addresses the key issued before. `key_backfills` queues the keys
 *    whose earlier history is read once from the xpub service (issued before recording began):
 *    every key a live webhook names now, requested at the webhook's creation (the earliest it
 *    can have been named: its addresses are rescanned from then, never missed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_changes add column created_at timestamptz`.execute(db);
  await sql`
    update webhook_changes c set created_at = coalesce((select w.created_at from webhooks w where w.id = c.webhook_id), now())`.execute(db);
  await sql`alter table webhook_changes alter column created_at set default now(), alter column created_at set not null`.execute(db);
  await sql`create index webhook_changes_created_at on webhook_changes (created_at)`.execute(db);

  await sql`alter table webhooks add column active_since timestamptz`.execute(db);
  await sql`update webhooks set active_since = created_at`.execute(db);
  await sql`alter table webhooks alter column active_since set default now(), alter column active_since set not null`.execute(db);

  await sql`alter table webhook_addresses add column listed boolean not null default true, add column watched_since timestamptz`.execute(
    db,
  );
  await sql`
    create table issued_addresses (
      xpub_id bigint not null,
      address text not null,
      account_id bigint not null,
      coin text not null check (coin in ('BTC', 'ETH', 'TRX')),
      issued_at timestamptz not null,
      primary key (xpub_id, address)
    )`.execute(db);
  await sql`
    create table key_backfills (
      xpub_id bigint not null,
      account_id bigint not null,
      coin text not null,
      requested_at timestamptz not null default now(),
      done_at timestamptz,
      primary key (xpub_id, account_id, coin)
    )`.execute(db);
  await sql`
    insert into key_backfills (xpub_id, account_id, coin, requested_at)
    select k.xpub_id, w.account_id, w.coin, min(w.created_at) from webhooks w cross join unnest(w.xpub_ids) as k(xpub_id)
     where w.deleted_at is null group by 1, 2, 3`.execute(db);

  await sql`
    create or replace function webhook_addresses_inserted() returns trigger language plpgsql set search_path from current as $$
    begin
      insert into webhook_changes (webhook_id, slot, created_at)
        select webhook_id, bucket_hash >> 6, least(now(), min(watched_since)) from new_rows group by webhook_id, bucket_hash >> 6;
      update webhooks w set address_count = w.address_count + added.n
        from (select webhook_id, count(*) as n from new_rows group by webhook_id) added where added.webhook_id = w.id;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function webhook_addresses_inserted() returns trigger language plpgsql set search_path from current as $$
    begin
      insert into webhook_changes (webhook_id, slot) select distinct webhook_id, bucket_hash >> 6 from new_rows;
      update webhooks w set address_count = w.address_count + added.n
        from (select webhook_id, count(*) as n from new_rows group by webhook_id) added where added.webhook_id = w.id;
      return null;
    end $$`.execute(db);
  await sql`drop table key_backfills`.execute(db);
  await sql`drop table issued_addresses`.execute(db);
  await sql`alter table webhook_addresses drop column watched_since, drop column listed`.execute(db);
  await sql`alter table webhooks drop column active_since`.execute(db);
  await sql`alter table webhook_changes drop column created_at`.execute(db);
}
