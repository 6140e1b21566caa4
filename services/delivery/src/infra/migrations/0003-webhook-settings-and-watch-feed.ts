import { sql, type Kysely } from "kysely";

/**
 * 1. Per-webhook notification settings: `confirmations` (1 = notified when the block is processed,
 *    the v1 behaviour) and `include_tokens` (ETH chooses; BTC never; TRX always, as the spec reports
 *    TRC-10/20 transfers: existing TRX rows become true).
 * 2. The bucketed watch feed (see @chaingate/contracts webhook-buckets.ts): every address gets its
 *    16-bit bucket hash as a generated column; the outbox row names what changed (`slot` null: the
 *    webhook's meta; 0..1023: the addresses of that slot, the top 10 bits of the hash; -1: every
 *    bucket); triggers on the address table record the slots of every inserted or deleted address
 *    and keep `address_count`, whoever writes (this release, the previous one during a rollout, an
 *    operator's SQL); `bucket_bits` is the level the relay publishes the webhook at.
 * 3. Every live webhook is queued (meta + every bucket) so an upgraded deployment republishes the
 *    registry in the new form. Slot 0 is queued too: at level 0 it is the webhook's only bucket, so a
 *    scanner that converted its old projection gets that bucket even when it is empty now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column confirmations integer not null default 1 check (confirmations >= 1)`.execute(db);
  await sql`alter table webhooks add column include_tokens boolean not null default false`.execute(db);
  await sql`update webhooks set include_tokens = true where coin = 'TRX'`.execute(db);
  await sql`alter table webhooks add constraint webhooks_include_tokens check (coin = 'ETH' or include_tokens = (coin = 'TRX'))`.execute(
    db,
  );

  await sql`alter table webhooks add column address_count integer not null default 0, add column bucket_bits smallint not null default 0 check (bucket_bits between 0 and 16)`.execute(
    db,
  );
  await sql`alter table webhook_addresses add column bucket_hash integer not null generated always as (('x' || substr(md5(address), 1, 4))::bit(16)::int) stored`.execute(
    db,
  );
  await sql`create index webhook_addresses_bucket on webhook_addresses (webhook_id, bucket_hash)`.execute(db);
  await sql`alter table webhook_changes add column slot smallint check (slot between -1 and 1023)`.execute(db);
  await sql`
    update webhooks w set address_count = counted.n
      from (select webhook_id, count(*) as n from webhook_addresses group by webhook_id) counted
     where counted.webhook_id = w.id`.execute(db);
  // The smallest level with at most 1,024 addresses per bucket on average (bucketBitsFor).
  await sql`update webhooks set bucket_bits = least(16, greatest(0, ceil(log(2, greatest(address_count, 1) / 1024.0))))`.execute(db);

  // `set search_path from current`: the triggers find the service's tables whatever the writer's path.
  await sql`
    create function webhook_addresses_inserted() returns trigger language plpgsql set search_path from current as $$
    begin
      insert into webhook_changes (webhook_id, slot) select distinct webhook_id, bucket_hash >> 6 from new_rows;
      update webhooks w set address_count = w.address_count + added.n
        from (select webhook_id, count(*) as n from new_rows group by webhook_id) added where added.webhook_id = w.id;
      return null;
    end $$`.execute(db);
  await sql`
    create function webhook_addresses_deleted() returns trigger language plpgsql set search_path from current as $$
    begin
      insert into webhook_changes (webhook_id, slot) select distinct webhook_id, bucket_hash >> 6 from old_rows;
      update webhooks w set address_count = w.address_count - removed.n
        from (select webhook_id, count(*) as n from old_rows group by webhook_id) removed where removed.webhook_id = w.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger webhook_addresses_inserted after insert on webhook_addresses referencing new table as new_rows for each statement execute function webhook_addresses_inserted()`.execute(
    db,
  );
  await sql`create trigger webhook_addresses_deleted after delete on webhook_addresses referencing old table as old_rows for each statement execute function webhook_addresses_deleted()`.execute(
    db,
  );

  await sql`
    insert into webhook_changes (webhook_id, slot)
    select id, slot from webhooks cross join (values (null::smallint), (-1::smallint), (0::smallint)) as queued(slot)
     where deleted_at is null
     order by id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger webhook_addresses_deleted on webhook_addresses`.execute(db);
  await sql`drop trigger webhook_addresses_inserted on webhook_addresses`.execute(db);
  await sql`drop function webhook_addresses_deleted()`.execute(db);
  await sql`drop function webhook_addresses_inserted()`.execute(db);
  await sql`alter table webhook_changes drop column slot`.execute(db);
  await sql`alter table webhook_addresses drop column bucket_hash`.execute(db);
  await sql`alter table webhooks drop column bucket_bits, drop column address_count, drop column include_tokens, drop column confirmations`.execute(
    db,
  );
}
