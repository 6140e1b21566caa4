/**
 * Operator actions on accounts and keys (the spec's "dashboard"). Every key change sends NOTIFY
 * in the same transaction, so gateways evict their cached row as the change commits; and, once it
 * has committed, tells `onKeyChanged`, so the gateway that made the change evicts it at once
 * instead of waiting for its own NOTIFY (api-key-store.ts).
 */
import { sql, type Kysely } from "kysely";
import { apiKeyPrefix, generateApiKey, hashApiKey } from "../domain/api-key.ts";
import { apiKeyQuotaError } from "../domain/api-key-quota.ts";
import { API_KEYS_CHANNEL, type GatewayDatabase } from "./database-schema.ts";

const PREFIX_COLLISION_RETRIES = 5;
/** First key of the gateway's two-key advisory locks (pg_advisory_xact_lock(int, int)): "gate". */
const ACCOUNT_LOCK_NAMESPACE = 0x67617465;

export interface CreatedApiKey {
  id: number;
  accountId: number;
  prefix: string;
  /** The whole key: shown once, never stored. */
  key: string;
}

export interface ApiKeyListing {
  id: number;
  account_id: number;
  prefix: string;
  name: string | null;
  active: boolean;
  created_at: Date;
  deactivated_at: Date | null;
}

/** A key as its account sees it: the listing plus the last day the usage statistics counted it. */
export interface AccountKey extends ApiKeyListing {
  last_used_on: string | null;
}

/** One page of an account's keys and how many it has in all. */
export interface AccountKeyPage {
  rows: AccountKey[];
  total: number;
}

export interface AccountSummary {
  id: number;
  name: string;
  created_at: Date;
  active_keys: number;
}

/** One page of the accounts and how many there are in all. */
export interface AccountPage {
  rows: AccountSummary[];
  total: number;
}

export interface DailyUsage {
  day: string;
  endpoint_group: string;
  request_count: number;
}

export interface UsageRow {
  api_key_id: number;
  prefix: string;
  day: string;
  endpoint_group: string;
  request_count: number;
}

export class AccountAdminError extends Error {
  override name = "AccountAdminError";
}

export interface AccountAdminOptions {
  /** Called with a key's prefix after a change to it committed (or a deactivation found it already inactive). */
  onKeyChanged?(prefix: string): void;
}

async function activeKeyCount(db: Kysely<GatewayDatabase>, accountId: number): Promise<number> {
  const { count } = await db
    .selectFrom("api_keys")
    .select(sql<string>`count(*)`.as("count"))
    .where("account_id", "=", accountId)
    .where("active", "=", true)
    .executeTakeFirstOrThrow();
  return Number(count);
}

const withLastUse = <Row extends { last_used_on: string | null | undefined }>(row: Row) => ({
  ...row,
  last_used_on: row.last_used_on ?? null,
});

/** Rows per statement of the CLI's key listing. */
const KEY_LISTING_BATCH = 1000;

const withActiveKeys = <Row extends { active_keys: string }>(row: Row) => ({ ...row, active_keys: Number(row.active_keys) });

export function createAccountAdmin(db: Kysely<GatewayDatabase>, options: AccountAdminOptions = {}) {
  /** Accounts with their count of active keys, by id. */
  const accountSummaries = () =>
    db
      .selectFrom("accounts as a")
      .leftJoin("api_keys as k", (join) => join.onRef("k.account_id", "=", "a.id").on("k.active", "=", true))
      .select(["a.id", "a.name", "a.created_at", sql<string>`count(k.id)`.as("active_keys")])
      .groupBy(["a.id", "a.name", "a.created_at"])
      .orderBy("a.id");

  /** Keys with the last day usage counted each, by id. */
  const accountKeysQuery = () =>
    db
      .selectFrom("api_keys as k")
      .select(["k.id", "k.account_id", "k.prefix", "k.name", "k.active", "k.created_at", "k.deactivated_at"])
      .select((eb) =>
        eb
          .selectFrom("api_key_usage as u")
          .select(sql<string | null>`to_char(max(u.day), 'YYYY-MM-DD')`.as("day"))
          .whereRef("u.api_key_id", "=", "k.id")
          .as("last_used_on"),
      )
      .orderBy("k.id");

  return {
    async createAccount(name: string): Promise<number> {
      const { id } = await db.insertInto("accounts").values({ name }).returning("id").executeTakeFirstOrThrow();
      return id;
    },

    /**
     * A new key of the account. With `maxActiveKeys` (the account's own creates; the operator is not
     * held to it) the account's active keys are counted under a per-account lock held to the
     * commit, so parallel creates on any replicas never both take the last slot; past it the
     * ValidationError of apiKeyQuotaError.
     */
    async createApiKey(accountId: number, name: string | null = null, limits: { maxActiveKeys?: number } = {}): Promise<CreatedApiKey> {
      const account = await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
      if (!account) throw new AccountAdminError(`No account with id ${accountId}.`);
      const { maxActiveKeys } = limits;
      for (let attempt = 0; attempt < PREFIX_COLLISION_RETRIES; attempt++) {
        const key = generateApiKey();
        const prefix = apiKeyPrefix(key);
        const created = await db.transaction().execute(async (trx) => {
          if (maxActiveKeys !== undefined) {
            await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_NAMESPACE}, (${accountId}::bigint % 2147483647)::int)`.execute(trx);
            if ((await activeKeyCount(trx, accountId)) >= maxActiveKeys) throw apiKeyQuotaError(maxActiveKeys);
          }
          const row = await trx
            .insertInto("api_keys")
            .values({ account_id: accountId, prefix, secret_hash: hashApiKey(key), name })
            .onConflict((oc) => oc.column("prefix").doNothing())
            .returning("id")
            .executeTakeFirst();
          // A gateway may hold a negative cache entry for this prefix.
          if (row) await sql`select pg_notify(${API_KEYS_CHANNEL}, ${prefix})`.execute(trx);
          return row;
        });
        if (created) {
          options.onKeyChanged?.(prefix);
          return { id: created.id, accountId, prefix, key };
        }
      }
      throw new AccountAdminError("Could not find a free key prefix; try again.");
    },

    /** Every key (or the account's), by id, read a thousand rows after the last one at a time: the CLI's memory does not grow with the list. */
    async *listApiKeys(accountId?: number): AsyncGenerator<ApiKeyListing> {
      for (let afterId = 0; ; ) {
        let query = db
          .selectFrom("api_keys")
          .select(["id", "account_id", "prefix", "name", "active", "created_at", "deactivated_at"])
          .where("id", ">", afterId)
          .orderBy("id")
          .limit(KEY_LISTING_BATCH);
        if (accountId !== undefined) query = query.where("account_id", "=", accountId);
        const rows = await query.execute();
        yield* rows;
        if (rows.length < KEY_LISTING_BATCH) return;
        afterId = rows.at(-1)!.id;
      }
    },

    /** Deactivates by id or by prefix; true when a key changed. */
    async deactivateApiKey(idOrPrefix: number | string): Promise<boolean> {
      const column = typeof idOrPrefix === "number" ? "id" : "prefix";
      const changed = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("api_keys")
          .set({ active: false, deactivated_at: new Date() })
          .where(column, "=", idOrPrefix)
          .where("active", "=", true)
          .returning("prefix")
          .executeTakeFirst();
        if (row) await sql`select pg_notify(${API_KEYS_CHANNEL}, ${row.prefix})`.execute(trx);
        return row;
      });
      if (options.onKeyChanged) {
        // An already inactive key is forgotten too: a cached copy may predate a deactivation whose NOTIFY this gateway missed.
        const found = changed ?? (await db.selectFrom("api_keys").select("prefix").where(column, "=", idOrPrefix).executeTakeFirst());
        if (found) options.onKeyChanged(found.prefix);
      }
      return Boolean(changed);
    },

    /** The account's active keys (what QUOTA_API_KEYS_PER_ACCOUNT counts). */
    activeKeyCount: (accountId: number): Promise<number> => activeKeyCount(db, accountId),

    /** One page of the account's keys by id (`page` from 1), and how many it has in all. */
    async accountKeyPage(accountId: number, page: number, perPage: number): Promise<AccountKeyPage> {
      const [rows, counted] = await Promise.all([
        accountKeysQuery()
          .where("k.account_id", "=", accountId)
          .offset((page - 1) * perPage)
          .limit(perPage)
          .execute(),
        db
          .selectFrom("api_keys")
          .select(sql<string>`count(*)`.as("total"))
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(withLastUse), total: Number(counted.total) };
    },

    async accountExists(accountId: number): Promise<boolean> {
      return Boolean(await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst());
    },

    /** One account with its count of active keys; undefined when there is none with that id. */
    async account(accountId: number): Promise<AccountSummary | undefined> {
      const [row] = await accountSummaries().where("a.id", "=", accountId).execute();
      return row && withActiveKeys(row);
    },

    /** One page of the accounts by id (`page` from 1), and how many there are in all. */
    async accountPage(page: number, perPage: number): Promise<AccountPage> {
      const [rows, counted] = await Promise.all([
        accountSummaries()
          .offset((page - 1) * perPage)
          .limit(perPage)
          .execute(),
        db
          .selectFrom("accounts")
          .select(sql<string>`count(*)`.as("total"))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(withActiveKeys), total: Number(counted.total) };
    },

    /** The keys of one account (or one key, by id), each with the last day usage counted it. */
    async accountKeys(filter: { accountId?: number; keyId?: number }): Promise<AccountKey[]> {
      let query = accountKeysQuery();
      if (filter.accountId !== undefined) query = query.where("k.account_id", "=", filter.accountId);
      if (filter.keyId !== undefined) query = query.where("k.id", "=", filter.keyId);
      return (await query.execute()).map(withLastUse);
    },

    /** Requests per UTC day and endpoint group over every key of the account, from `since` on. */
    async dailyUsage(accountId: number, since: string): Promise<DailyUsage[]> {
      const rows = await db
        .selectFrom("api_key_usage as u")
        .innerJoin("api_keys as k", "k.id", "u.api_key_id")
        .select([
          sql<string>`to_char(u.day, 'YYYY-MM-DD')`.as("day"),
          "u.endpoint_group",
          sql<string>`sum(u.request_count)`.as("request_count"),
        ])
        .where("k.account_id", "=", accountId)
        .where("u.day", ">=", since)
        .groupBy(["u.day", "u.endpoint_group"])
        .orderBy("u.day")
        .orderBy("u.endpoint_group")
        .execute();
      return rows.map((row) => ({ ...row, request_count: Number(row.request_count) }));
    },

    async usage(filter: { accountId?: number; since?: string } = {}): Promise<UsageRow[]> {
      let query = db
        .selectFrom("api_key_usage as u")
        .innerJoin("api_keys as k", "k.id", "u.api_key_id")
        .select(["u.api_key_id", "k.prefix", sql<string>`to_char(u.day, 'YYYY-MM-DD')`.as("day"), "u.endpoint_group", "u.request_count"])
        .orderBy("u.day")
        .orderBy("u.api_key_id")
        .orderBy("u.endpoint_group");
      if (filter.accountId !== undefined) query = query.where("k.account_id", "=", filter.accountId);
      if (filter.since) query = query.where("u.day", ">=", filter.since);
      return query.execute();
    },
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;
