import { checkAddressQuota } from "./check-address-quota.ts";
import { checkBucketSizes } from "./check-bucket-sizes.ts";
import { insertAddresses } from "./insert-addresses.ts";
import { lockAccount } from "./lock-account.ts";
import { lockOwnedWebhook } from "./lock-owned-webhook.ts";
import { markWebhookChanged } from "./mark-webhook-changed.ts";
import { unlistAddresses } from "./unlist-addresses.ts";
import { committed, type WebhookRepositoryContext } from "./webhook-repository-context.ts";

/** Adds (`add`) or removes addresses; the counts, or undefined when not found. */
export async function changeWebhookAddresses(
  context: WebhookRepositoryContext,
  accountId: number,
  webhookId: number,
  addresses: string[],
  add: boolean,
): Promise<{ changed: number; total: number } | undefined> {
  return committed(context, async (trx) => {
    if (add) await lockAccount(trx, accountId);
    if (!(await lockOwnedWebhook(trx, accountId, webhookId))) return undefined;
    let changed: number;
    if (add) {
      changed = await insertAddresses(trx, webhookId, addresses);
      await checkBucketSizes(trx, webhookId, addresses);
      if (changed > 0) await checkAddressQuota(trx, accountId, context.quotas);
    } else {
      // Leaves the client's list; an address a current key issued stays watched.
      changed = await unlistAddresses(trx, webhookId, "only", addresses);
    }
    if (changed > 0) await markWebhookChanged(trx, webhookId);
    // Kept by the address table's triggers: no count over a million rows per batch.
    const { address_count: total } = await trx
      .selectFrom("webhooks")
      .select("address_count")
      .where("id", "=", webhookId)
      .executeTakeFirstOrThrow();
    return { changed, total };
  });
}
