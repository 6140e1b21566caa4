import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** Marks the webhook changed (new version, updated_at) and queues its `webhook.changed`, in `trx`. */
export async function markWebhookChanged(trx: Transaction<DeliveryDatabase>, webhookId: number): Promise<void> {
  await trx
    .updateTable("webhooks")
    .set({ updated_at: new Date(), version: sql`nextval('webhook_version_seq')` } as never)
    .where("id", "=", webhookId)
    .execute();
  await trx.insertInto("webhook_changes").values({ webhook_id: webhookId }).execute();
}
