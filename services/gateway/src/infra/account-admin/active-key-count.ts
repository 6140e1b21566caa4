import { sql, type Kysely } from "kysely";
import type { GatewayDatabase } from "../database-schema.ts";

/** The account's active keys (what QUOTA_API_KEYS_PER_ACCOUNT counts); `db` may be a transaction. */
export async function activeKeyCount(db: Kysely<GatewayDatabase>, accountId: number): Promise<number> {
  const { count } = await db
    .selectFrom("api_keys")
    .select(sql<string>`count(*)`.as("count"))
    .where("account_id", "=", accountId)
    .where("active", "=", true)
    .executeTakeFirstOrThrow();
  return Number(count);
}
