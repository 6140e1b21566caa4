/** What an account uses of the xpub service's quotas, for the operator CLI's `quotas`. */
import type { QuotaUsage } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { XpubDatabase } from "./database-schema.ts";

export interface XpubQuotas {
  maxRecordsPerAccount: number;
  maxAddressesPerKey: number;
}

/** Records over both chains, and the addresses issued by the account's busiest key (the per-key limit). */
export async function readAccountQuotaUsage(db: Kysely<XpubDatabase>, accountId: number, quotas: XpubQuotas): Promise<QuotaUsage> {
  const { records, busiest } = await db
    .selectFrom("extended_keys")
    .select([sql<string>`count(*)`.as("records"), sql<number>`coalesce(max(next_index), 0)`.as("busiest")])
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return {
    account_id: accountId,
    quotas: [
      { setting: "QUOTA_XPUB_RECORDS_PER_ACCOUNT", used: Number(records), limit: quotas.maxRecordsPerAccount },
      { setting: "XPUB_MAX_ADDRESSES_PER_KEY (busiest key)", used: Number(busiest), limit: quotas.maxAddressesPerKey },
    ],
  };
}
