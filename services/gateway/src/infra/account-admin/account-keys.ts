/** An account's keys as the account sees them: each with the last day the usage statistics counted it. */
import { sql, type Kysely } from "kysely";
import type { GatewayDatabase } from "../database-schema.ts";
import type { AccountAdminContext } from "./account-admin-context.ts";
import type { ApiKeyListing } from "./list-api-keys.ts";

/** A key as its account sees it: the listing plus the last day the usage statistics counted it. */
export interface AccountKey extends ApiKeyListing {
  last_used_on: string | null;
}

/** One page of an account's keys and how many it has in all. */
export interface AccountKeyPage {
  rows: AccountKey[];
  total: number;
}

/** Keys with the last day usage counted each, by id. */
const accountKeysQuery = (db: Kysely<GatewayDatabase>) =>
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

const withLastUse = <Row extends { last_used_on: string | null | undefined }>(row: Row) => ({
  ...row,
  last_used_on: row.last_used_on ?? null,
});

/** One page of the account's keys by id (`page` from 1), and how many it has in all. */
export async function accountKeyPage(
  { db }: AccountAdminContext,
  accountId: number,
  page: number,
  perPage: number,
): Promise<AccountKeyPage> {
  const [rows, counted] = await Promise.all([
    accountKeysQuery(db)
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
}

/** The keys of one account (or one key, by id), each with the last day usage counted it. */
export async function accountKeys({ db }: AccountAdminContext, filter: { accountId?: number; keyId?: number }): Promise<AccountKey[]> {
  let query = accountKeysQuery(db);
  if (filter.accountId !== undefined) query = query.where("k.account_id", "=", filter.accountId);
  if (filter.keyId !== undefined) query = query.where("k.id", "=", filter.keyId);
  return (await query.execute()).map(withLastUse);
}
