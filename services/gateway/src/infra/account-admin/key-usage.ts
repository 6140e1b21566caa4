/** What the usage statistics (api_key_usage) counted: per account and day, or per key, day and endpoint group. */
import { sql } from "kysely";
import type { AccountAdminContext } from "./account-admin-context.ts";

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

/** Requests per UTC day and endpoint group over every key of the account, from `since` on. */
export async function dailyUsage({ db }: AccountAdminContext, accountId: number, since: string): Promise<DailyUsage[]> {
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
}

export async function usage({ db }: AccountAdminContext, filter: { accountId?: number; since?: string } = {}): Promise<UsageRow[]> {
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
}
