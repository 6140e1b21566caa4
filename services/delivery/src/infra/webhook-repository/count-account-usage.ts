import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** How many live webhooks the account has. */
export async function countWebhooks(executor: Kysely<DeliveryDatabase>, accountId: number): Promise<number> {
  const { n } = await executor
    .selectFrom("webhooks")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Every address the account's live webhooks watch (address_count is kept by triggers: no scan of the address rows). */
export async function countAddresses(executor: Kysely<DeliveryDatabase>, accountId: number): Promise<number> {
  const { n } = await executor
    .selectFrom("webhooks")
    .select(sql<string>`coalesce(sum(address_count), 0)`.as("n"))
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
