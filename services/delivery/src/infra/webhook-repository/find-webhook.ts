import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import { WEBHOOK_RECORD_COLUMNS, type WebhookRecord } from "./webhook-record.ts";

/** The account's live webhook; undefined when missing, deleted or another account's. */
export async function findWebhook(db: Kysely<DeliveryDatabase>, accountId: number, webhookId: number): Promise<WebhookRecord | undefined> {
  const row = await db
    .selectFrom("webhooks")
    .select(WEBHOOK_RECORD_COLUMNS)
    .where("id", "=", webhookId)
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return row && { ...row, version: Number(row.version) };
}
