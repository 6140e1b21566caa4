/**
 * The scanner's projection of the webhook registry, kept in Postgres from the watch feed (stream
 * WEBHOOK_FEED): each webhook's newest meta (`webhooks`) and the newest list of each of its buckets
 * (`webhook_buckets`). One replica stores each message (a shared durable consumer, in stream order);
 * every replica brings its in-memory index up to date from the rows changed since its last refresh.
 *
 * Invariants: a row is only ever replaced by a newer version, so redelivered, duplicated and
 * reordered messages cannot take it back; a deleted webhook keeps its meta (a tombstone) and no
 * bucket of it is stored again; buckets of a level below the webhook's stored level are dropped.
 *
 * Late addresses (issue 16): the newest registry watermark is kept (`watch_watermark`), and a
 * message that makes addresses watched (a bucket that gains addresses, a meta that starts the
 * webhook being watched) queues a rescan in the same transaction (`pending_rescans`, with the
 * message's `since`), so the follower matches them against the kept blocks it matched without
 * them, even if a process dies in between.
 */
import {
  COINS,
  isAddressBucket,
  isWatermark,
  type EventPayload,
  type webhookWatermark,
  type WebhookFeedMessage,
  type webhookAddresses,
  type webhookChanged,
} from "@chaingate/contracts";
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import { isWatched, type Coin } from "@chaingate/contracts";
import type { RescanJob, WatchFeed, WatchFeedState } from "../domain/ports.ts";
import type { AddressBucket, WatchedWebhookMeta, WatchIndex } from "../domain/watch-index.ts";
import type { ScannerDatabase, WebhooksTable } from "./database-schema.ts";

/** Advisory lock key serialising projection writes (any constant unique within the database). */
const WEBHOOK_WRITE_LOCK = 0x5ca77e01;

export type WebhookMetaMessage = EventPayload<typeof webhookChanged>;
export type WebhookBucketMessage = EventPayload<typeof webhookAddresses>;
export type WatermarkMessage = EventPayload<typeof webhookWatermark>;

export interface FeedStoreOptions {
  /** The chains this scanner follows: rescans are queued for them only (default all). */
  rescanCoins?: ReadonlySet<Coin>;
}

const ALL_COINS: ReadonlySet<Coin> = new Set(COINS);

/** A message's `since` in ms, or the time it is stored when it has none (an older registry). */
const sinceMs = (since: string | undefined): number => (since ? Date.parse(since) : Date.now());

/** Keeps the newest watermark. */
async function applyWatermark(trx: Transaction<ScannerDatabase>, watermark: WatermarkMessage): Promise<void> {
  const registryTimeMs = Date.parse(watermark.registry_time);
  await trx
    .insertInto("watch_watermark")
    .values({ id: 1, registry_time_ms: registryTimeMs })
    .onConflict((c) =>
      c.column("id").doUpdateSet({ registry_time_ms: sql<number>`greatest(watch_watermark.registry_time_ms, excluded.registry_time_ms)` }),
    )
    .execute();
}

/**
 * Writers take turns, so change_seq values commit in order and a reader that saw seq n can never
 * miss a smaller one committing later.
 */
async function serialized(db: Kysely<ScannerDatabase>, work: (trx: Transaction<ScannerDatabase>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${WEBHOOK_WRITE_LOCK})`.execute(trx);
    await work(trx);
  });
}

/** Stores a webhook's meta unless a newer version is stored; drops the buckets it makes obsolete. */
async function applyMeta(trx: Transaction<ScannerDatabase>, meta: WebhookMetaMessage, rescans: ReadonlySet<Coin>): Promise<void> {
  const values = {
    webhook_id: meta.webhook_id,
    coin: meta.coin,
    // The column holds whether the scanner matches for it (an inactive webhook is still watched: its events are held).
    is_active: isWatched(meta),
    deleted: meta.deleted,
    version: meta.version,
    confirmations: meta.confirmations,
    include_tokens: meta.include_tokens,
    pending: meta.pending ?? false,
    all_tokens: meta.all_tokens ?? false,
    address_count: meta.address_count,
    bucket_bits: meta.bucket_bits,
  };
  const before = await trx
    .selectFrom("webhooks")
    .select(["is_active", "deleted"])
    .where("webhook_id", "=", meta.webhook_id)
    .executeTakeFirst();
  const stored = await trx
    .insertInto("webhooks")
    .values(values)
    .onConflict((c) =>
      c
        .column("webhook_id")
        .doUpdateSet({ ...values, change_seq: sql<number>`nextval('webhook_change_seq')` })
        .where("webhooks.version", "<", meta.version),
    )
    .returning("webhook_id")
    .executeTakeFirst();
  if (!stored) return;
  const startsWatching = isWatched(meta) && !(before?.is_active && !before.deleted);
  if (startsWatching && rescans.has(meta.coin))
    await trx
      .insertInto("pending_rescans")
      .values({ coin: meta.coin, webhook_id: meta.webhook_id, addresses: null, since_ms: sinceMs(meta.since) })
      .execute();
  let obsolete = trx.deleteFrom("webhook_buckets").where("webhook_id", "=", meta.webhook_id);
  if (!meta.deleted) obsolete = obsolete.where("bucket_bits", "<", meta.bucket_bits);
  await obsolete.execute();
}

/** Stores a bucket's list unless a newer one is stored, its webhook is deleted, or its level is obsolete. */
async function applyBucket(trx: Transaction<ScannerDatabase>, bucket: WebhookBucketMessage, rescans: ReadonlySet<Coin>): Promise<void> {
  const meta = await trx
    .selectFrom("webhooks")
    .select(["deleted", "bucket_bits"])
    .where("webhook_id", "=", bucket.webhook_id)
    .executeTakeFirst();
  if (meta && (meta.deleted || bucket.bucket_bits < meta.bucket_bits)) return;
  const values = {
    webhook_id: bucket.webhook_id,
    bucket_bits: bucket.bucket_bits,
    bucket: bucket.bucket,
    coin: bucket.coin,
    version: bucket.version,
    addresses: JSON.stringify(bucket.addresses),
  };
  // What it held before: this bucket's row, or (first message of a new level) the lower levels' rows that cover it.
  const previous = await trx
    .selectFrom("webhook_buckets")
    .select(["bucket_bits", "version", "addresses"])
    .where("webhook_id", "=", bucket.webhook_id)
    .where("bucket_bits", "<=", bucket.bucket_bits)
    .where(sql<boolean>`bucket = (${bucket.bucket}::int >> (${bucket.bucket_bits}::int - bucket_bits))`)
    .execute();
  const same = previous.find((row) => row.bucket_bits === bucket.bucket_bits);
  if (same && same.version >= bucket.version) return;
  const held = new Set((same ? [same] : previous).flatMap((row) => row.addresses));
  const added = bucket.addresses.filter((address) => !held.has(address));
  if (added.length && rescans.has(bucket.coin))
    await trx
      .insertInto("pending_rescans")
      .values({ coin: bucket.coin, webhook_id: bucket.webhook_id, addresses: JSON.stringify(added), since_ms: sinceMs(bucket.since) })
      .execute();
  await trx
    .insertInto("webhook_buckets")
    .values(values)
    .onConflict((c) =>
      c
        .columns(["webhook_id", "bucket_bits", "bucket"])
        .doUpdateSet({ version: values.version, addresses: values.addresses, change_seq: sql<number>`nextval('webhook_change_seq')` })
        .where("webhook_buckets.version", "<", bucket.version),
    )
    .execute();
}

/**
 * Stores messages of the feed, whichever kind, in the order given and in one transaction (a
 * scanner rebuilding from the stream pays one commit per batch, not per message).
 */
export function storeFeedMessages(
  db: Kysely<ScannerDatabase>,
  messages: readonly WebhookFeedMessage[],
  options: FeedStoreOptions = {},
): Promise<void> {
  const rescans = options.rescanCoins ?? ALL_COINS;
  return serialized(db, async (trx) => {
    for (const message of messages)
      await (isWatermark(message)
        ? applyWatermark(trx, message)
        : isAddressBucket(message)
          ? applyBucket(trx, message, rescans)
          : applyMeta(trx, message, rescans));
  });
}

/** Stores one message of the feed, whichever kind. */
export function storeFeedMessage(db: Kysely<ScannerDatabase>, message: WebhookFeedMessage, options: FeedStoreOptions = {}): Promise<void> {
  return storeFeedMessages(db, [message], options);
}

function toMeta(row: Selectable<WebhooksTable>): WatchedWebhookMeta {
  return {
    webhookId: row.webhook_id,
    coin: row.coin as WatchedWebhookMeta["coin"],
    isActive: row.is_active,
    deleted: row.deleted,
    version: row.version,
    confirmations: row.confirmations ?? undefined,
    includeTokens: row.include_tokens ?? undefined,
    pending: row.pending,
    allTokens: row.all_tokens,
    bucketBits: row.bucket_bits,
  };
}

interface BucketRow {
  webhook_id: number;
  bucket_bits: number;
  bucket: number;
  addresses: string[];
}

/** Groups bucket rows by webhook (and level) in the order they came. */
function byWebhook(rows: readonly BucketRow[]): Map<number, { bits: number; buckets: AddressBucket[] }[]> {
  const grouped = new Map<number, { bits: number; buckets: AddressBucket[] }[]>();
  for (const row of rows) {
    const levels = grouped.get(row.webhook_id) ?? [];
    let level = levels.find((l) => l.bits === row.bucket_bits);
    if (!level) levels.push((level = { bits: row.bucket_bits, buckets: [] }));
    level.buckets.push({ bucket: row.bucket, addresses: row.addresses });
    grouped.set(row.webhook_id, levels);
  }
  return grouped;
}

/**
 * A feed that applies the rows changed since the previous refresh (all of them the first time).
 * Everything a refresh needs is read in one repeatable-read snapshot, then applied to the index
 * without an await in between, so a follower matching meanwhile sees the index before or after,
 * never half-way. Refreshes of the followers sharing the index take turns.
 */
export function createPostgresWatchFeed(db: Kysely<ScannerDatabase>): WatchFeed {
  let metaSeq = 0;
  let bucketSeq = 0;
  let turn: Promise<unknown> = Promise.resolve();

  async function refresh(index: WatchIndex): Promise<WatchFeedState> {
    const first = metaSeq === 0 && bucketSeq === 0;
    const read = await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const metas = await trx.selectFrom("webhooks").selectAll().where("change_seq", ">", metaSeq).orderBy("change_seq").execute();
        const newest = new Map(metas.map((row) => [row.webhook_id, toMeta(row)]));
        // Webhooks that start being watched or change level: their whole list, at the meta's level.
        const reload = [...newest.values()].filter((meta) => index.metaEffect(meta) === "reload").map((meta) => meta.webhookId);
        const bucketColumns = ["b.webhook_id", "b.bucket_bits", "b.bucket", "b.addresses"] as const;
        const reloaded = reload.length
          ? await trx
              .selectFrom("webhook_buckets as b")
              .innerJoin("webhooks as w", (join) =>
                join.onRef("w.webhook_id", "=", "b.webhook_id").onRef("w.bucket_bits", "=", "b.bucket_bits"),
              )
              .select(bucketColumns)
              .where("w.is_active", "=", true)
              .where("w.deleted", "=", false)
              .$if(!first, (q) => q.where(sql<boolean>`b.webhook_id = any(${reload}::bigint[])`))
              .execute()
          : [];
        const changed = first
          ? []
          : await trx
              .selectFrom("webhook_buckets as b")
              .select([...bucketColumns, "b.change_seq"])
              .where("b.change_seq", ">", bucketSeq)
              .orderBy("b.change_seq")
              .execute();
        const lastBucketSeq = first
          ? ((
              await trx
                .selectFrom("webhook_buckets")
                .select((eb) => eb.fn.max("change_seq").as("seq"))
                .executeTakeFirst()
            )?.seq ?? 0)
          : (changed.at(-1)?.change_seq ?? bucketSeq);
        // The watermark and the rescans of the same snapshot: the index applied below is the registry at that watermark.
        const watermark = await trx.selectFrom("watch_watermark").select("registry_time_ms").executeTakeFirst();
        const rescans = await trx.selectFrom("pending_rescans").selectAll().orderBy("id").execute();
        return {
          metas: [...newest.values()],
          reload: new Set(reload),
          reloaded,
          changed,
          lastMetaSeq: metas.at(-1)?.change_seq ?? metaSeq,
          lastBucketSeq: Number(lastBucketSeq),
          state: {
            watermarkMs: watermark?.registry_time_ms,
            rescans: rescans.map(
              (row): RescanJob => ({
                id: row.id,
                coin: row.coin as Coin,
                webhookId: row.webhook_id,
                addresses: row.addresses,
                sinceMs: row.since_ms,
              }),
            ),
          },
        };
      });

    // Applied in one synchronous pass.
    for (const meta of read.metas) index.applyMeta(meta);
    for (const [webhookId, levels] of byWebhook(read.reloaded)) {
      for (const { bits, buckets } of levels) index.replaceBuckets(webhookId, bits, buckets, { all: true });
    }
    for (const [webhookId, levels] of byWebhook(read.changed)) {
      if (read.reload.has(webhookId)) continue;
      for (const { bits, buckets } of levels) index.replaceBuckets(webhookId, bits, buckets);
    }
    metaSeq = read.lastMetaSeq;
    bucketSeq = read.lastBucketSeq;
    return read.state;
  }

  return {
    refresh(index) {
      const run = turn.then(() => refresh(index));
      turn = run.catch(() => {});
      return run;
    },
    async finishRescans(ids) {
      if (ids.length)
        await db
          .deleteFrom("pending_rescans")
          .where("id", "in", [...ids])
          .execute();
    },
  };
}
