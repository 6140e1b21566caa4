/**
 * Operator actions on accounts and keys (the spec's "dashboard"). Every key change sends NOTIFY
 * in the same transaction, so gateways evict their cached row as the change commits; and, once it
 * has committed, tells `onKeyChanged`, so the gateway that made the change evicts it at once
 * instead of waiting for its own NOTIFY (api-key-store.ts).
 *
 * Each operation lives in account-admin/, named after it; this factory binds them to one database.
 */
import type { Kysely } from "kysely";
import type { AccountAdminContext, AccountAdminOptions } from "./account-admin/account-admin-context.ts";
import { accountKeyPage, accountKeys, type AccountKey, type AccountKeyPage } from "./account-admin/account-keys.ts";
import { account, accountExists, accountPage, createAccount, type AccountPage, type AccountSummary } from "./account-admin/accounts.ts";
import { activeKeyCount } from "./account-admin/active-key-count.ts";
import { createApiKey, type CreatedApiKey } from "./account-admin/create-api-key.ts";
import { deactivateApiKey } from "./account-admin/deactivate-api-key.ts";
import { dailyUsage, usage, type DailyUsage, type UsageRow } from "./account-admin/key-usage.ts";
import { listApiKeys, type ApiKeyListing } from "./account-admin/list-api-keys.ts";
import type { GatewayDatabase } from "./database-schema.ts";

export type { AccountAdminOptions } from "./account-admin/account-admin-context.ts";
export { AccountAdminError } from "./account-admin/account-admin-error.ts";
export type { AccountKey, AccountKeyPage } from "./account-admin/account-keys.ts";
export type { AccountPage, AccountSummary } from "./account-admin/accounts.ts";
export type { CreatedApiKey } from "./account-admin/create-api-key.ts";
export type { DailyUsage, UsageRow } from "./account-admin/key-usage.ts";
export type { ApiKeyListing } from "./account-admin/list-api-keys.ts";

export function createAccountAdmin(db: Kysely<GatewayDatabase>, options: AccountAdminOptions = {}) {
  const context: AccountAdminContext = { db, options };
  return {
    createAccount: (name: string): Promise<number> => createAccount(context, name),

    /** A new key of the account; with `maxActiveKeys`, refused past that many active keys (create-api-key.ts). */
    createApiKey: (accountId: number, name: string | null = null, limits: { maxActiveKeys?: number } = {}): Promise<CreatedApiKey> =>
      createApiKey(context, accountId, name, limits),

    /** Every key (or the account's), by id, read a thousand rows at a time. */
    listApiKeys: (accountId?: number): AsyncGenerator<ApiKeyListing> => listApiKeys(context, accountId),

    /** Deactivates by id or by prefix; true when a key changed. */
    deactivateApiKey: (idOrPrefix: number | string): Promise<boolean> => deactivateApiKey(context, idOrPrefix),

    /** The account's active keys (what QUOTA_API_KEYS_PER_ACCOUNT counts). */
    activeKeyCount: (accountId: number): Promise<number> => activeKeyCount(db, accountId),

    /** One page of the account's keys by id (`page` from 1), and how many it has in all. */
    accountKeyPage: (accountId: number, page: number, perPage: number): Promise<AccountKeyPage> =>
      accountKeyPage(context, accountId, page, perPage),

    accountExists: (accountId: number): Promise<boolean> => accountExists(context, accountId),

    /** One account with its count of active keys; undefined when there is none with that id. */
    account: (accountId: number): Promise<AccountSummary | undefined> => account(context, accountId),

    /** One page of the accounts by id (`page` from 1), and how many there are in all. */
    accountPage: (page: number, perPage: number): Promise<AccountPage> => accountPage(context, page, perPage),

    /** The keys of one account (or one key, by id), each with the last day usage counted it. */
    accountKeys: (filter: { accountId?: number; keyId?: number }): Promise<AccountKey[]> => accountKeys(context, filter),

    /** Requests per UTC day and endpoint group over every key of the account, from `since` on. */
    dailyUsage: (accountId: number, since: string): Promise<DailyUsage[]> => dailyUsage(context, accountId, since),

    usage: (filter: { accountId?: number; since?: string } = {}): Promise<UsageRow[]> => usage(context, filter),
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;
