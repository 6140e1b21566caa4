import type { Coin } from "@chaingate/contracts";
import { webhookQuotaError } from "../../domain/registry-quotas.ts";
import { checkAddressQuota } from "./check-address-quota.ts";
import { checkBucketSizes } from "./check-bucket-sizes.ts";
import { countWebhooks } from "./count-account-usage.ts";
import { findWebhook } from "./find-webhook.ts";
import { followKeys } from "./follow-keys.ts";
import { insertAddresses } from "./insert-addresses.ts";
import { lockAccount } from "./lock-account.ts";
import { lockKeys } from "./lock-keys.ts";
import type { WebhookRecord } from "./webhook-record.ts";
import { committed, type WebhookRepositoryContext } from "./webhook-repository-context.ts";

export interface NewWebhook {
  coin: Coin;
  webhook_url: string;
  secret: string;
  is_active: boolean;
  xpub_ids: number[];
  confirmations: number;
  include_tokens: boolean;
  /** Coverage heartbeats every this many blocks; none when absent or null. */
  heartbeat_blocks?: number | null | undefined;
  /** Coverage heartbeats every this many seconds; none when absent or null. */
  heartbeat_seconds?: number | null | undefined;
  /** Also `pending` (mempool) events; false when absent. */
  pending?: boolean | undefined;
  /** Every ERC-20 transfer (EVM chains); false when absent. */
  all_tokens?: boolean | undefined;
  addresses: string[];
}

/**
 * Registers the account's webhook with its addresses and those its keys issued, within the
 * account's quotas, and queues its `webhook.changed`.
 */
export async function createWebhook(context: WebhookRepositoryContext, accountId: number, webhook: NewWebhook): Promise<WebhookRecord> {
  const { quotas } = context;
  const id = await committed(context, async (trx) => {
    await lockAccount(trx, accountId);
    if ((await countWebhooks(trx, accountId)) >= quotas.webhooksPerAccount) throw webhookQuotaError(quotas.webhooksPerAccount);
    await lockKeys(trx, webhook.xpub_ids);
    const { id } = await trx
      .insertInto("webhooks")
      .values({
        account_id: accountId,
        coin: webhook.coin,
        webhook_url: webhook.webhook_url,
        secret: webhook.secret,
        is_active: webhook.is_active ? 1 : 0,
        xpub_ids: webhook.xpub_ids,
        confirmations: webhook.confirmations,
        include_tokens: webhook.include_tokens,
        heartbeat_blocks: webhook.heartbeat_blocks ?? null,
        heartbeat_seconds: webhook.heartbeat_seconds ?? null,
        pending: webhook.pending ?? false,
        all_tokens: webhook.all_tokens ?? false,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const listed = await insertAddresses(trx, id, webhook.addresses);
    const added = webhook.xpub_ids.length ? await followKeys(trx, id) : [];
    await checkBucketSizes(trx, id, [...webhook.addresses, ...added]);
    if (listed > 0) await checkAddressQuota(trx, accountId, quotas);
    await trx.insertInto("webhook_changes").values({ webhook_id: id }).execute();
    return id;
  });
  return (await findWebhook(context.db, accountId, id))!;
}
