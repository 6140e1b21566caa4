/**
 * The webhook registry in Postgres. Every change inserts a `webhook_changes` row in the same
 * transaction (the outbox), so a committed change always reaches the watch feed, even when the
 * process dies before publishing; the buckets an address write touches are queued by triggers on
 * webhook_addresses (migration 0003), in that same transaction.
 */
import { BUCKET_HASH_BITS, MAX_ADDRESSES_PER_BUCKET, bucketBitsFor, bucketHash, bucketOf, type Coin } from "@chaingate/contracts";
import { ValidationError } from "@chaingate/errors";
import { sql, type Kysely, type Transaction } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";

/** Rows per insert statement when adding addresses (stays far below Postgres' 65,535 parameters). */
const INSERT_CHUNK = 5_000;

export interface WebhookRecord {
  id: number;
  account_id: number;
  coin: Coin;
  webhook_url: string;
  secret: string;
  is_active: number;
  xpub_ids: number[];
  confirmations: number;
  include_tokens: boolean;
  failure_count: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  addresses: string[];
}

export interface NewWebhook {
  coin: Coin;
  webhook_url: string;
  secret: string;
  is_active: boolean;
  xpub_ids: number[];
  confirmations: number;
  include_tokens: boolean;
  addresses: string[];
}

export interface WebhookUpdate {
  webhook_url?: string | undefined;
  is_active?: boolean | undefined;
  xpub_ids?: number[] | undefined;
  confirmations?: number | undefined;
  include_tokens?: boolean | undefined;
  addresses?: string[] | undefined;
  secret?: string | undefined;
}

/** Marks the webhook changed (new version, updated_at) and queues its `webhook.changed`, in `trx`. */
export async function markWebhookChanged(trx: Transaction<DeliveryDatabase>, webhookId: number): Promise<void> {
  await trx
    .updateTable("webhooks")
    .set({ updated_at: new Date(), version: sql`nextval('webhook_version_seq')` } as never)
    .where("id", "=", webhookId)
    .execute();
  await trx.insertInto("webhook_changes").values({ webhook_id: webhookId }).execute();
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;

export function createWebhookRepository(db: Kysely<DeliveryDatabase>, onChange: () => void = () => {}) {
  const columns = ["id", "account_id", "coin", "webhook_url", "secret", "is_active", "xpub_ids", "confirmations", "include_tokens", "failure_count", "version", "created_at", "updated_at"] as const;

  async function readAddresses(executor: Kysely<DeliveryDatabase>, webhookId: number): Promise<string[]> {
    const rows = await executor.selectFrom("webhook_addresses").select("address").where("webhook_id", "=", webhookId).orderBy("address").execute();
    return rows.map((row) => row.address);
  }

  async function insertAddresses(trx: Transaction<DeliveryDatabase>, webhookId: number, addresses: readonly string[]): Promise<number> {
    let added = 0;
    for (let start = 0; start < addresses.length; start += INSERT_CHUNK) {
      const chunk = addresses.slice(start, start + INSERT_CHUNK);
      const result = await trx
        .insertInto("webhook_addresses")
        .values(chunk.map((address) => ({ webhook_id: webhookId, address })))
        .onConflict((c) => c.doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  }

  const touch = markWebhookChanged;

  /**
   * Refuses (422, rolling the write back) when a bucket the written addresses fall in would hold
   * more than MAX_ADDRESSES_PER_BUCKET at the level the webhook is about to be published at: its
   * feed message would not fit in NATS. Only addresses chosen to collide get there.
   */
  async function checkBucketSizes(trx: Transaction<DeliveryDatabase>, webhookId: number, written: readonly string[]): Promise<void> {
    if (!written.length) return;
    // address_count is kept by the address table's statement triggers, so it already counts this write.
    const { bucket_bits: stored, address_count: count } = await trx.selectFrom("webhooks").select(["bucket_bits", "address_count"]).where("id", "=", webhookId).executeTakeFirstOrThrow();
    if (count <= MAX_ADDRESSES_PER_BUCKET) return;
    const bits = Math.max(stored, bucketBitsFor(count));
    const shift = BUCKET_HASH_BITS - bits;
    const touched = [...new Set(written.map((address) => bucketOf(bucketHash(address), bits)))];
    const { rows } = await sql<{ bucket: number }>`
      select bucket_hash >> ${shift}::int as bucket from webhook_addresses
       where webhook_id = ${webhookId} and bucket_hash >> ${shift}::int = any(${touched}::int[])
       group by 1 having count(*) > ${MAX_ADDRESSES_PER_BUCKET} limit 1`.execute(trx);
    if (rows.length) {
      throw new ValidationError({
        addresses: [`More than ${MAX_ADDRESSES_PER_BUCKET} of this webhook's addresses fall into one bucket of the watch feed; spread these addresses over several webhooks.`],
      });
    }
  }

  /** The account's live webhook, locked for the transaction; undefined when missing, deleted or another account's. */
  async function lockOwned(trx: Transaction<DeliveryDatabase>, accountId: number, webhookId: number) {
    return trx.selectFrom("webhooks").select("id").where("id", "=", webhookId).where("account_id", "=", accountId).where("deleted_at", "is", null).forUpdate().executeTakeFirst();
  }

  async function find(accountId: number, webhookId: number): Promise<WebhookRecord | undefined> {
    const row = await db.selectFrom("webhooks").select(columns).where("id", "=", webhookId).where("account_id", "=", accountId).where("deleted_at", "is", null).executeTakeFirst();
    if (!row) return undefined;
    return { ...row, version: Number(row.version), addresses: await readAddresses(db, webhookId) };
  }

  async function committed<T>(work: (trx: Transaction<DeliveryDatabase>) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute(work);
    onChange();
    return result;
  }

  return {
    find,

    async create(accountId: number, webhook: NewWebhook): Promise<WebhookRecord> {
      const id = await committed(async (trx) => {
        const { id } = await trx
          .insertInto("webhooks")
          .values({
            account_id: accountId,
            coin: webhook.coin,
            webhook_url: webhook.webhook_url,
            secret: webhook.secret,
            is_active: webhook.is_active ? 1 : 0,
            xpub_ids: webhook.xpub_ids,
            confirmations: webhook.confirmations,
            include_tokens: webhook.include_tokens,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await insertAddresses(trx, id, webhook.addresses);
        await checkBucketSizes(trx, id, webhook.addresses);
        await trx.insertInto("webhook_changes").values({ webhook_id: id }).execute();
        return id;
      });
      return (await find(accountId, id))!;
    },

    async list(accountId: number, offset: number, limit: number): Promise<{ total: number; webhooks: WebhookRecord[] }> {
      const live = db.selectFrom("webhooks").where("account_id", "=", accountId).where("deleted_at", "is", null);
      const { total } = await live.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
      const rows = await live.select(columns).orderBy("id").offset(offset).limit(limit).execute();
      const webhooks = await Promise.all(rows.map(async (row) => ({ ...row, version: Number(row.version), addresses: await readAddresses(db, row.id) })));
      return { total: Number(total), webhooks };
    },

    /** Applies a partial update; re-enabling resets the failure count. False when not found. */
    async update(accountId: number, webhookId: number, update: WebhookUpdate): Promise<boolean> {
      return committed(async (trx) => {
        if (!(await lockOwned(trx, accountId, webhookId))) return false;
        const set: Record<string, unknown> = {};
        if (update.webhook_url !== undefined) set.webhook_url = update.webhook_url;
        if (update.secret !== undefined) set.secret = update.secret;
        if (update.xpub_ids !== undefined) set.xpub_ids = update.xpub_ids;
        if (update.confirmations !== undefined) set.confirmations = update.confirmations;
        if (update.include_tokens !== undefined) set.include_tokens = update.include_tokens;
        if (update.is_active !== undefined) {
          set.is_active = update.is_active ? 1 : 0;
          if (update.is_active) set.failure_count = 0;
        }
        if (Object.keys(set).length) await trx.updateTable("webhooks").set(set).where("id", "=", webhookId).execute();
        if (update.addresses !== undefined) {
          await trx.deleteFrom("webhook_addresses").where("webhook_id", "=", webhookId).execute();
          await insertAddresses(trx, webhookId, update.addresses);
          await checkBucketSizes(trx, webhookId, update.addresses);
        }
        await touch(trx, webhookId);
        return true;
      });
    },

    async softDelete(accountId: number, webhookId: number): Promise<boolean> {
      return committed(async (trx) => {
        if (!(await lockOwned(trx, accountId, webhookId))) return false;
        await trx.updateTable("webhooks").set({ deleted_at: new Date() }).where("id", "=", webhookId).execute();
        await touch(trx, webhookId);
        return true;
      });
    },

    /** Adds (`add`) or removes addresses; the counts, or undefined when not found. */
    async changeAddresses(accountId: number, webhookId: number, addresses: string[], add: boolean): Promise<{ changed: number; total: number } | undefined> {
      return committed(async (trx) => {
        if (!(await lockOwned(trx, accountId, webhookId))) return undefined;
        let changed: number;
        if (add) {
          changed = await insertAddresses(trx, webhookId, addresses);
          await checkBucketSizes(trx, webhookId, addresses);
        } else {
          const result = await trx.deleteFrom("webhook_addresses").where("webhook_id", "=", webhookId).where("address", "in", addresses).executeTakeFirst();
          changed = Number(result.numDeletedRows);
        }
        if (changed > 0) await touch(trx, webhookId);
        // Kept by the address table's triggers: no count over a million rows per batch.
        const { address_count: total } = await trx.selectFrom("webhooks").select("address_count").where("id", "=", webhookId).executeTakeFirstOrThrow();
        return { changed, total };
      });
    },

    /** `address.issued`: watches the address on every live webhook of the account that names the key. */
    async watchIssuedAddress(accountId: number, coin: Coin, xpubId: number, address: string): Promise<number> {
      return committed(async (trx) => {
        const hooks = await trx
          .selectFrom("webhooks")
          .select("id")
          .where("account_id", "=", accountId)
          .where("coin", "=", coin)
          .where("deleted_at", "is", null)
          .where(sql<boolean>`xpub_ids @> array[${xpubId}]::bigint[]`)
          .forUpdate()
          .execute();
        let watched = 0;
        for (const { id } of hooks) {
          if ((await insertAddresses(trx, id, [address])) > 0) {
            await touch(trx, id);
            watched++;
          }
        }
        return watched;
      });
    },
  };
}
