import { lockOwnedWebhook } from "./lock-owned-webhook.ts";
import { markWebhookChanged } from "./mark-webhook-changed.ts";
import { committed, type WebhookRepositoryContext } from "./webhook-repository-context.ts";

/** Marks the account's webhook deleted and queues its `webhook.changed`. False when not found. */
export async function softDeleteWebhook(context: WebhookRepositoryContext, accountId: number, webhookId: number): Promise<boolean> {
  return committed(context, async (trx) => {
    if (!(await lockOwnedWebhook(trx, accountId, webhookId))) return false;
    await trx.updateTable("webhooks").set({ deleted_at: new Date() }).where("id", "=", webhookId).execute();
    await markWebhookChanged(trx, webhookId);
    return true;
  });
}
