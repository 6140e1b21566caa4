import { sql, type Kysely } from "kysely";

/**
 * The projection follows the bucketed watch feed: `webhooks` keeps each webhook's meta (its address
 * list moves out), `webhook_buckets` one row per (webhook, level, bucket) with that bucket's whole
 * list. Rows of the old whole-state form become level-0 buckets at their version, so an upgraded
 * scanner keeps watching until the registry's republish (delivery migration 0003) reaches it; that
 * republish replaces them (a newer or equal version, and slot 0 is always republished at level 0)
 * or moves the webhook to a higher level, which drops them. `webhooks.addresses` is left nullable
 * and empty for the previous release's replicas during a rollout; a later release drops it.
 *
 * `watch_feed_consumer` names this projection's durable consumer of the feed, once per database:
 * replicas over one database share it, and a scanner whose database is new (or was rebuilt) gets a
 * consumer of its own that starts at the beginning of the compacted stream, instead of inheriting
 * the old one's position and never seeing the registry it lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column address_count integer not null default 0, add column bucket_bits smallint not null default 0`.execute(
    db,
  );
  await sql`alter table webhooks alter column addresses drop not null`.execute(db);
  await db.schema
    .createTable("webhook_buckets")
    .addColumn("webhook_id", "bigint", (c) => c.notNull())
    .addColumn("bucket_bits", "smallint", (c) => c.notNull())
    .addColumn("bucket", "integer", (c) => c.notNull())
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .addColumn("addresses", "jsonb", (c) => c.notNull())
    // The same sequence as webhooks.change_seq: replicas read what changed since their last refresh.
    .addColumn("change_seq", "bigint", (c) => c.notNull().defaultTo(sql`nextval('webhook_change_seq')`))
    .addPrimaryKeyConstraint("webhook_buckets_pk", ["webhook_id", "bucket_bits", "bucket"])
    .execute();
  await db.schema.createIndex("webhook_buckets_change_seq").on("webhook_buckets").column("change_seq").execute();
  await sql`
    insert into webhook_buckets (webhook_id, bucket_bits, bucket, coin, version, addresses)
    select webhook_id, 0, 0, coin, version, addresses from webhooks where not deleted and jsonb_array_length(addresses) > 0`.execute(db);
  await sql`update webhooks set address_count = coalesce(jsonb_array_length(addresses), 0), addresses = null`.execute(db);
  await sql`create table watch_feed_consumer (name text not null)`.execute(db);
  await sql`insert into watch_feed_consumer (name) values ('scanner-watch-feed-' || substr(md5(random()::text || clock_timestamp()::text), 1, 12))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("watch_feed_consumer").execute();
  await db.schema.dropTable("webhook_buckets").execute();
  await sql`alter table webhooks drop column bucket_bits, drop column address_count`.execute(db);
}
