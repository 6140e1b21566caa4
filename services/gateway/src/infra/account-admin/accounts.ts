/** Accounts: created, looked up, paged, each with its count of active keys. */
import { sql, type Kysely } from "kysely";
import type { GatewayDatabase } from "../database-schema.ts";
import type { AccountAdminContext } from "./account-admin-context.ts";

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

/** Accounts with their count of active keys, by id. */
const accountSummaries = (db: Kysely<GatewayDatabase>) =>
  db
    .selectFrom("accounts as a")
    .leftJoin("api_keys as k", (join) => join.onRef("k.account_id", "=", "a.id").on("k.active", "=", true))
    .select(["a.id", "a.name", "a.created_at", sql<string>`count(k.id)`.as("active_keys")])
    .groupBy(["a.id", "a.name", "a.created_at"])
    .orderBy("a.id");

const withActiveKeys = <Row extends { active_keys: string }>(row: Row) => ({ ...row, active_keys: Number(row.active_keys) });

export async function createAccount({ db }: AccountAdminContext, name: string): Promise<number> {
  const { id } = await db.insertInto("accounts").values({ name }).returning("id").executeTakeFirstOrThrow();
  return id;
}

export async function accountExists({ db }: AccountAdminContext, accountId: number): Promise<boolean> {
  return Boolean(await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst());
}

/** One account with its count of active keys; undefined when there is none with that id. */
export async function account({ db }: AccountAdminContext, accountId: number): Promise<AccountSummary | undefined> {
  const [row] = await accountSummaries(db).where("a.id", "=", accountId).execute();
  return row && withActiveKeys(row);
}

/** One page of the accounts by id (`page` from 1), and how many there are in all. */
export async function accountPage({ db }: AccountAdminContext, page: number, perPage: number): Promise<AccountPage> {
  const [rows, counted] = await Promise.all([
    accountSummaries(db)
      .offset((page - 1) * perPage)
      .limit(perPage)
      .execute(),
    db
      .selectFrom("accounts")
      .select(sql<string>`count(*)`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(withActiveKeys), total: Number(counted.total) };
}
