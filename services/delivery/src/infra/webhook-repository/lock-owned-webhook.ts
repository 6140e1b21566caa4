import type { Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** The account's live webhook, locked for the transaction; undefined when missing, deleted or another account's. */
export async function lockOwnedWebhook(trx: Transaction<DeliveryDatabase>, accountId: number, webhookId: number) {
  return trx
    .selectFrom("webhooks")
    .select("id")
    .where("id", "=", webhookId)
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
}
