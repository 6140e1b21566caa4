import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import { countAddresses, countWebhooks } from "./count-account-usage.ts";

/** What an account uses of its registry quotas. */
export interface AccountRegistryUsage {
  webhooks: number;
  addresses: number;
  /** Test events in the last minute of its busiest webhook. */
  testEventsLastMinute: number;
}

/** What the account uses of its quotas (the admin CLI's `quotas`). */
export async function readRegistryUsage(db: Kysely<DeliveryDatabase>, accountId: number): Promise<AccountRegistryUsage> {
  const { n } = await db
    .selectFrom("webhooks")
    .select(
      sql<number>`coalesce(max((select count(*) from unnest(test_event_times) t where t > now() - interval '1 minute')), 0)::int`.as("n"),
    )
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return {
    webhooks: await countWebhooks(db, accountId),
    addresses: await countAddresses(db, accountId),
    testEventsLastMinute: Number(n),
  };
}
