/**
 * The webhook registry in Postgres. Every change inserts a `webhook_changes` row in the same
 * transaction (the outbox), so a committed change always reaches the watch feed, even when the
 * process dies before publishing; the buckets an address write touches are queued by triggers on
 * webhook_addresses (migration 0003), in that same transaction.
 *
 * A webhook watches the union of the client's own list (`listed` rows) and the addresses issued by
 * the keys in its `xpub_ids` (`issued_addresses`, recorded from every `address.issued` consumed):
 * `webhook_addresses` holds that union, so the feed, the counts and the bucket cap see exactly what
 * is watched. A PUT of `addresses` replaces the client's list only; changing `xpub_ids` adds the
 * addresses the new keys issued before and drops those of removed keys (unless listed). A key the
 * operator moved to another account takes its addresses along (apply-key-move.ts).
 */
import {
  BUCKET_HASH_BITS,
  MAX_ADDRESSES_PER_BUCKET,
  bucketBitsFor,
  bucketHash,
  bucketOf,
  type addressIssued,
  type Coin,
  type EventPayload,
} from "@chaingate/contracts";
import { ValidationError } from "@chaingate/errors";
import { sql, type Kysely, type Transaction } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";
import { readKeyHolder } from "./read-key-holder.ts";
import { ownerOfIssuedAddress } from "../domain/owner-of-issued-address.ts";
import { addressQuotaError, DEFAULT_REGISTRY_QUOTAS, webhookQuotaError, type RegistryQuotas } from "../domain/registry-quotas.ts";

/** Advisory lock namespace (the first key) of "this key's issued addresses are being read or recorded". */
const KEY_LOCK_NAMESPACE = 0x6b657973;
/**
 * Advisory lock namespace of "this account's quota is being checked and used": a create or an
 * address write holds it to its commit, so two parallel writes cannot both take the last free slot.
 * Taken before any key or webhook row lock (the `address.issued` consumer never takes it).
 */
const ACCOUNT_LOCK_NAMESPACE = 0x71756f74;
/** Addresses per read when a single webhook's whole list is streamed (about 45 KB of JSON). */
const ADDRESS_STREAM_CHUNK = 1_000;
/** Most address rows one statement of the list answer reads (5 webhooks at the list's cap of 1,000). */
export const LIST_ADDRESSES_PER_READ = 5_000;
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
  /** Every watched address (kept by the address table's triggers). */
  address_count: number;
}

/** A watched address as its page shows it: `listed` false when only a key in `xpub_ids` put it there. */
export interface WatchedAddress {
  address: string;
  listed: boolean;
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

/** What the registry needs of an `address.issued` event. */
export type IssuedAddress = Pick<EventPayload<typeof addressIssued>, "account_id" | "xpub_id" | "coin" | "address" | "index" | "issued_at">;

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

/**
 * Locks the keys for the transaction, in id order. Whoever records an issued address (the
 * `address.issued` consumer, the history backfill) and whoever names a key (create, PUT) take it
 * before reading the other side, so one always sees the other's commit: without it a PUT naming a
 * key and an address of that key recorded at the same moment could each miss the other. Always
 * before any webhook row lock (the consumer finds its webhooks only after), so no deadlock.
 */
export async function lockKeys(trx: Transaction<DeliveryDatabase>, xpubIds: readonly number[]): Promise<void> {
  if (!xpubIds.length) return;
  const sorted = [...new Set(xpubIds)].sort((a, b) => a - b);
  // Volatile functions in the select list run after the sort (Postgres 9.6+): locks taken in order.
  await sql`select pg_advisory_xact_lock(${KEY_LOCK_NAMESPACE}, (k % 2147483647)::int) from unnest(${sorted}::bigint[]) as k order by k`.execute(
    trx,
  );
}

/**
 * Watches on the webhook every recorded address its current keys issued that it does not watch yet
 * (`watchedSince`: when they count as watched, for the feed's `since`; now when omitted). Returns them.
 */
export async function watchKeyAddresses(trx: Transaction<DeliveryDatabase>, webhookId: number, watchedSince?: Date): Promise<string[]> {
  const { rows } = await sql<{ address: string }>`
    insert into webhook_addresses (webhook_id, address, listed, watched_since)
    select w.id, i.address, false, ${watchedSince ?? null}::timestamptz from webhooks w
      join issued_addresses i on i.xpub_id = any(w.xpub_ids) and i.account_id = w.account_id and i.coin = w.coin
     where w.id = ${webhookId}
    on conflict do nothing
    returning address`.execute(trx);
  return rows.map((row) => row.address);
}

/** The live webhooks of the key's account and coin that name it, locked for the transaction (in id order). */
export async function lockWebhooksNamingKey(
  trx: Transaction<DeliveryDatabase>,
  key: { xpub_id: number; account_id: number; coin: Coin },
): Promise<number[]> {
  const rows = await trx
    .selectFrom("webhooks")
    .select("id")
    .where("account_id", "=", key.account_id)
    .where("coin", "=", key.coin)
    .where("deleted_at", "is", null)
    .where(sql<boolean>`xpub_ids @> array[${key.xpub_id}]::bigint[]`)
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/** What an account uses of its registry quotas. */
export interface AccountRegistryUsage {
  webhooks: number;
  addresses: number;
  /** Test events in the last minute of its busiest webhook. */
  testEventsLastMinute: number;
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;

export function createWebhookRepository(
  db: Kysely<DeliveryDatabase>,
  onChange: () => void = () => {},
  quotas: RegistryQuotas = DEFAULT_REGISTRY_QUOTAS,
) {
  const columns = [
    "id",
    "account_id",
    "coin",
    "webhook_url",
    "secret",
    "is_active",
    "xpub_ids",
    "confirmations",
    "include_tokens",
    "failure_count",
    "version",
    "created_at",
    "updated_at",
    "address_count",
  ] as const;

  /** Adds the client's addresses (and marks as listed the ones already watched through a key); how many are new. */
  async function insertAddresses(trx: Transaction<DeliveryDatabase>, webhookId: number, addresses: readonly string[]): Promise<number> {
    let added = 0;
    for (let start = 0; start < addresses.length; start += INSERT_CHUNK) {
      const chunk = addresses.slice(start, start + INSERT_CHUNK);
      await trx
        .updateTable("webhook_addresses")
        .set({ listed: true })
        .where("webhook_id", "=", webhookId)
        .where("listed", "=", false)
        .where("address", "in", chunk)
        .execute();
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

  /** Whether address row `a` was issued by one of the current keys of webhook row `w`. */
  const issuedByCurrentKey = sql<boolean>`exists (select 1 from issued_addresses i
     where i.xpub_id = any(w.xpub_ids) and i.address = a.address and i.account_id = w.account_id and i.coin = w.coin)`;

  /**
   * Takes addresses off the client's list: those of `addresses` (`only`) or all but them (`except`).
   * One a current key issued stays watched; the others are deleted. Returns how many were deleted.
   * Anti-joins, so a PUT over a large webhook costs its size, not its size times the list's.
   */
  async function unlist(
    trx: Transaction<DeliveryDatabase>,
    webhookId: number,
    scope: "only" | "except",
    addresses: readonly string[],
  ): Promise<number> {
    const named = sql<boolean>`exists (select 1 from unnest(${addresses}::text[]) as named(address) where named.address = a.address)`;
    const inScope = scope === "only" ? named : sql<boolean>`not ${named}`;
    const deleted = await sql`
      delete from webhook_addresses a using webhooks w
       where w.id = ${webhookId} and a.webhook_id = w.id and a.listed and ${inScope} and not ${issuedByCurrentKey}`.execute(trx);
    await sql`
      update webhook_addresses a set listed = false from webhooks w
       where w.id = ${webhookId} and a.webhook_id = w.id and a.listed and ${inScope}`.execute(trx);
    return Number(deleted.numAffectedRows ?? 0);
  }

  /**
   * After `xpub_ids` changed (the caller holds the new keys' locks, see lockKeys): drops the
   * unlisted addresses no current key issued, watches what the current keys issued as far as
   * recorded (earlier issuances included, from now), and queues the keys' histories
   * (key-history-backfill.ts brings what was issued before recording began). Returns the added addresses.
   */
  async function followKeys(trx: Transaction<DeliveryDatabase>, webhookId: number): Promise<string[]> {
    await sql`
      delete from webhook_addresses a using webhooks w
       where w.id = ${webhookId} and a.webhook_id = w.id and not a.listed and not ${issuedByCurrentKey}`.execute(trx);
    await sql`
      insert into key_backfills (xpub_id, account_id, coin)
      select unnest(xpub_ids), account_id, coin from webhooks where id = ${webhookId}
      on conflict do nothing`.execute(trx);
    return watchKeyAddresses(trx, webhookId);
  }

  /**
   * Refuses (422, rolling the write back) when a bucket the written addresses fall in would hold
   * more than MAX_ADDRESSES_PER_BUCKET at the level the webhook is about to be published at: its
   * feed message would not fit in NATS. Only addresses chosen to collide get there.
   */
  async function checkBucketSizes(trx: Transaction<DeliveryDatabase>, webhookId: number, written: readonly string[]): Promise<void> {
    if (!written.length) return;
    // address_count is kept by the address table's statement triggers, so it already counts this write.
    const { bucket_bits: stored, address_count: count } = await trx
      .selectFrom("webhooks")
      .select(["bucket_bits", "address_count"])
      .where("id", "=", webhookId)
      .executeTakeFirstOrThrow();
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
        addresses: [
          `More than ${MAX_ADDRESSES_PER_BUCKET} of this webhook's addresses fall into one bucket of the watch feed; spread these addresses over several webhooks.`,
        ],
      });
    }
  }

  async function lockAccount(trx: Transaction<DeliveryDatabase>, accountId: number): Promise<void> {
    await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_NAMESPACE}, (${accountId}::bigint % 2147483647)::int)`.execute(trx);
  }

  async function countWebhooks(executor: Kysely<DeliveryDatabase>, accountId: number): Promise<number> {
    const { n } = await executor
      .selectFrom("webhooks")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Every address the account's live webhooks watch (address_count is kept by triggers: no scan of the address rows). */
  async function countAddresses(executor: Kysely<DeliveryDatabase>, accountId: number): Promise<number> {
    const { n } = await executor
      .selectFrom("webhooks")
      .select(sql<string>`coalesce(sum(address_count), 0)`.as("n"))
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Refuses (422, rolling the write back) a write of the client's own addresses that leaves the account past its quota. */
  async function checkAddressQuota(trx: Transaction<DeliveryDatabase>, accountId: number): Promise<void> {
    const watched = await countAddresses(trx, accountId);
    if (watched > quotas.addressesPerAccount) throw addressQuotaError(quotas.addressesPerAccount, watched);
  }

  /** The account's live webhook, locked for the transaction; undefined when missing, deleted or another account's. */
  async function lockOwned(trx: Transaction<DeliveryDatabase>, accountId: number, webhookId: number) {
    return trx
      .selectFrom("webhooks")
      .select("id")
      .where("id", "=", webhookId)
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
  }

  async function find(accountId: number, webhookId: number): Promise<WebhookRecord | undefined> {
    const row = await db
      .selectFrom("webhooks")
      .select(columns)
      .where("id", "=", webhookId)
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return row && { ...row, version: Number(row.version) };
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
        await lockAccount(trx, accountId);
        if ((await countWebhooks(trx, accountId)) >= quotas.webhooksPerAccount) throw webhookQuotaError(quotas.webhooksPerAccount);
        await lockKeys(trx, webhook.xpub_ids);
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
        const listed = await insertAddresses(trx, id, webhook.addresses);
        const added = webhook.xpub_ids.length ? await followKeys(trx, id) : [];
        await checkBucketSizes(trx, id, [...webhook.addresses, ...added]);
        if (listed > 0) await checkAddressQuota(trx, accountId);
        await trx.insertInto("webhook_changes").values({ webhook_id: id }).execute();
        return id;
      });
      return (await find(accountId, id))!;
    },

    /** What the account uses of its quotas (the admin CLI's `quotas`). */
    async usage(accountId: number): Promise<AccountRegistryUsage> {
      const { n } = await db
        .selectFrom("webhooks")
        .select(
          sql<number>`coalesce(max((select count(*) from unnest(test_event_times) t where t > now() - interval '1 minute')), 0)::int`.as(
            "n",
          ),
        )
        .where("account_id", "=", accountId)
        .where("deleted_at", "is", null)
        .executeTakeFirstOrThrow();
      return {
        webhooks: await countWebhooks(db, accountId),
        addresses: await countAddresses(db, accountId),
        testEventsLastMinute: Number(n),
      };
    },

    /** How many live webhooks the account has, and one page of them by id (without their addresses: see cappedAddresses). */
    async listPage(accountId: number, offset: number, limit: number): Promise<{ total: number; webhooks: WebhookRecord[] }> {
      const live = db.selectFrom("webhooks").where("account_id", "=", accountId).where("deleted_at", "is", null);
      const { total } = await live.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
      if (offset >= Number(total)) return { total: Number(total), webhooks: [] };
      const rows = await live.select(columns).orderBy("id").offset(offset).limit(limit).execute();
      return { total: Number(total), webhooks: rows.map((row) => ({ ...row, version: Number(row.version) })) };
    },

    /**
     * The first addresses (address order) of each webhook, in the order given: at most `cap`, and no
     * more than its `address_count` as read with it, so the array and the count agree. Read several
     * webhooks per statement, from each one's primary-key range, but never more than
     * LIST_ADDRESSES_PER_READ rows; each read yields its webhooks' arrays, one per webhook. A page of
     * 500 webhooks at the cap is read 5,000 rows at a time while the answer streams, never as one
     * 500,000-row result.
     */
    async *cappedAddresses(webhooks: ReadonlyArray<Pick<WebhookRecord, "id" | "address_count">>, cap: number): AsyncGenerator<string[][]> {
      const wanted = webhooks.map((webhook) => ({ id: webhook.id, limit: Math.min(cap, webhook.address_count) }));
      for (let start = 0, end = 0; start < wanted.length; start = end) {
        // As many webhooks as one read holds; at least one (one webhook's cap is below the bound).
        let rows = wanted[start]!.limit;
        for (end = start + 1; end < wanted.length && rows + wanted[end]!.limit <= LIST_ADDRESSES_PER_READ; end++)
          rows += wanted[end]!.limit;
        const group = wanted.slice(start, end);
        const read = group.filter((webhook) => webhook.limit > 0);
        // Each webhook's rows come out of its lateral read in address order (its index range).
        const { rows: found } = read.length
          ? await sql<{ webhook_id: number; address: string }>`
              select w.id as webhook_id, a.address from unnest(${read.map((w) => w.id)}::bigint[], ${read.map((w) => w.limit)}::int[]) as w(id, cap)
                cross join lateral (select address from webhook_addresses where webhook_id = w.id order by address limit w.cap) a`.execute(
              db,
            )
          : { rows: [] };
        const addresses = new Map<number, string[]>(group.map((webhook) => [webhook.id, []]));
        for (const row of found) addresses.get(Number(row.webhook_id))!.push(row.address);
        yield group.map((webhook) => addresses.get(webhook.id)!);
      }
    },

    /**
     * The webhook's addresses in address order, a chunk at a time (keyset reads of the primary
     * key), for answers that carry them all: memory stays one chunk whatever the webhook's size.
     * Not one snapshot: a change committed while it runs may show in the later chunks only.
     */
    async *addressChunks(webhookId: number): AsyncGenerator<string[]> {
      let after: string | undefined;
      for (;;) {
        let query = db.selectFrom("webhook_addresses").select("address").where("webhook_id", "=", webhookId);
        if (after !== undefined) query = query.where("address", ">", after);
        const rows = await query.orderBy("address").limit(ADDRESS_STREAM_CHUNK).execute();
        if (rows.length) yield rows.map((row) => row.address);
        if (rows.length < ADDRESS_STREAM_CHUNK) return;
        after = rows.at(-1)!.address;
      }
    },

    /** One page of the webhook's addresses in address order (`GET /webhooks/{id}/addresses`), after `after` when given. */
    async addressPage(webhookId: number, offset: number, limit: number, after?: string): Promise<WatchedAddress[]> {
      let query = db.selectFrom("webhook_addresses").select(["address", "listed"]).where("webhook_id", "=", webhookId);
      if (after !== undefined) query = query.where("address", ">", after);
      return query.orderBy("address").offset(offset).limit(limit).execute();
    },

    /** Applies a partial update; re-enabling resets the failure count. False when not found. */
    async update(accountId: number, webhookId: number, update: WebhookUpdate): Promise<boolean> {
      return committed(async (trx) => {
        if (update.addresses !== undefined) await lockAccount(trx, accountId);
        if (update.xpub_ids !== undefined) await lockKeys(trx, update.xpub_ids);
        if (!(await lockOwned(trx, accountId, webhookId))) return false;
        const set: Record<string, unknown> = {};
        if (update.webhook_url !== undefined) set.webhook_url = update.webhook_url;
        if (update.webhook_url !== undefined || update.is_active) {
          // A new endpoint, or one the client re-enabled, starts with a closed circuit breaker.
          set.consecutive_unreachable = 0;
          set.breaker_until = null;
        }
        if (update.secret !== undefined) set.secret = update.secret;
        if (update.xpub_ids !== undefined) set.xpub_ids = update.xpub_ids;
        if (update.confirmations !== undefined) set.confirmations = update.confirmations;
        if (update.include_tokens !== undefined) set.include_tokens = update.include_tokens;
        if (update.is_active !== undefined) {
          set.is_active = update.is_active ? 1 : 0;
          if (update.is_active) {
            set.failure_count = 0;
            // Watched again from now (the feed's `since`); an active webhook keeps its time.
            set.active_since = sql`case when is_active = 0 then now() else active_since end`;
          }
        }
        if (Object.keys(set).length) await trx.updateTable("webhooks").set(set).where("id", "=", webhookId).execute();
        // The new keys first: the list's replacement keeps what they issued.
        const written = update.xpub_ids !== undefined ? await followKeys(trx, webhookId) : [];
        if (update.addresses !== undefined) {
          // Replaces the client's list only; addresses of the webhook's keys stay.
          await unlist(trx, webhookId, "except", update.addresses);
          const listed = await insertAddresses(trx, webhookId, update.addresses);
          written.push(...update.addresses);
          if (listed > 0) await checkAddressQuota(trx, accountId);
        }
        await checkBucketSizes(trx, webhookId, written);
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
    async changeAddresses(
      accountId: number,
      webhookId: number,
      addresses: string[],
      add: boolean,
    ): Promise<{ changed: number; total: number } | undefined> {
      return committed(async (trx) => {
        if (add) await lockAccount(trx, accountId);
        if (!(await lockOwned(trx, accountId, webhookId))) return undefined;
        let changed: number;
        if (add) {
          changed = await insertAddresses(trx, webhookId, addresses);
          await checkBucketSizes(trx, webhookId, addresses);
          if (changed > 0) await checkAddressQuota(trx, accountId);
        } else {
          // Leaves the client's list; an address a current key issued stays watched.
          changed = await unlist(trx, webhookId, "only", addresses);
        }
        if (changed > 0) await touch(trx, webhookId);
        // Kept by the address table's triggers: no count over a million rows per batch.
        const { address_count: total } = await trx
          .selectFrom("webhooks")
          .select("address_count")
          .where("id", "=", webhookId)
          .executeTakeFirstOrThrow();
        return { changed, total };
      });
    },

    /**
     * `address.issued`: records it for its key (setting `xpub_ids` later includes it) and watches it
     * on every live webhook of the account that names the key, since its issuance (the outbox row
     * takes that time, so the feed's `since` covers blocks paid while it travelled). The account is
     * the key's holder when the address was issued before a move the registry applied already.
     */
    async watchIssuedAddress(issued: IssuedAddress): Promise<number> {
      return committed(async (trx) => {
        const issuedAt = new Date(issued.issued_at);
        await lockKeys(trx, [issued.xpub_id]);
        const key = { ...issued, account_id: ownerOfIssuedAddress(await readKeyHolder(trx, issued.xpub_id), issued) };
        await trx
          .insertInto("issued_addresses")
          .values({
            xpub_id: key.xpub_id,
            address: key.address,
            account_id: key.account_id,
            coin: key.coin,
            issued_at: issuedAt,
          })
          .onConflict((c) => c.doNothing())
          .execute();
        let watched = 0;
        for (const id of await lockWebhooksNamingKey(trx, key)) {
          const result = await trx
            .insertInto("webhook_addresses")
            .values({ webhook_id: id, address: issued.address, listed: false, watched_since: issuedAt })
            .onConflict((c) => c.doNothing())
            .executeTakeFirst();
          if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) {
            await touch(trx, id);
            watched++;
          }
        }
        return watched;
      });
    },
  };
}
