import { sql } from "kysely";
import { checkAddressQuota } from "./check-address-quota.ts";
import { checkBucketSizes } from "./check-bucket-sizes.ts";
import { followKeys } from "./follow-keys.ts";
import { insertAddresses } from "./insert-addresses.ts";
import { lockAccount } from "./lock-account.ts";
import { lockKeys } from "./lock-keys.ts";
import { lockOwnedWebhook } from "./lock-owned-webhook.ts";
import { markWebhookChanged } from "./mark-webhook-changed.ts";
import { releaseHeldEvents } from "./release-held-events.ts";
import { unlistAddresses } from "./unlist-addresses.ts";
import { committed, type WebhookRepositoryContext } from "./webhook-repository-context.ts";

export interface WebhookUpdate {
  webhook_url?: string | undefined;
  is_active?: boolean | undefined;
  /** With `is_active: true`: what becomes of the events held while it was inactive (default push). */
  held_events?: "push" | "skip" | undefined;
  xpub_ids?: number[] | undefined;
  confirmations?: number | undefined;
  include_tokens?: boolean | undefined;
  heartbeat_blocks?: number | null | undefined;
  heartbeat_seconds?: number | null | undefined;
  pending?: boolean | undefined;
  all_tokens?: boolean | undefined;
  addresses?: string[] | undefined;
  secret?: string | undefined;
  /** With `secret`: how long the replaced secret keeps signing beside it (0: not at all). */
  secretOverlapSeconds?: number | undefined;
}

/** The `webhooks` columns the update sets. */
function columnsToSet(update: WebhookUpdate): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (update.webhook_url !== undefined) set.webhook_url = update.webhook_url;
  if (update.webhook_url !== undefined || update.is_active) {
    // A new endpoint, or one the client re-enabled, starts with a closed circuit breaker.
    set.consecutive_unreachable = 0;
    set.breaker_until = null;
  }
  if (update.secret !== undefined) {
    set.secret = update.secret;
    set.previous_secret = sql`secret`;
    set.previous_secret_until = sql`now() + ${update.secretOverlapSeconds ?? 0} * interval '1 second'`;
  }
  if (update.xpub_ids !== undefined) set.xpub_ids = update.xpub_ids;
  if (update.confirmations !== undefined) set.confirmations = update.confirmations;
  if (update.include_tokens !== undefined) set.include_tokens = update.include_tokens;
  if (update.heartbeat_blocks !== undefined) set.heartbeat_blocks = update.heartbeat_blocks;
  if (update.pending !== undefined) set.pending = update.pending;
  if (update.all_tokens !== undefined) set.all_tokens = update.all_tokens;
  if (update.heartbeat_seconds !== undefined) {
    set.heartbeat_seconds = update.heartbeat_seconds;
    // A new period starts at the next tick.
    set.heartbeat_due_at = null;
  }
  if (update.is_active !== undefined) {
    set.is_active = update.is_active ? 1 : 0;
    if (update.is_active) {
      set.failure_count = 0;
      // Watched again from now (the feed's `since`); an active webhook keeps its time.
      set.active_since = sql`case when is_active = 0 then now() else active_since end`;
    }
  }
  return set;
}

/** Applies a partial update; re-enabling resets the failure count. False when not found. */
export async function updateWebhook(
  context: WebhookRepositoryContext,
  accountId: number,
  webhookId: number,
  update: WebhookUpdate,
): Promise<boolean> {
  return committed(context, async (trx) => {
    if (update.addresses !== undefined) await lockAccount(trx, accountId);
    if (update.xpub_ids !== undefined) await lockKeys(trx, update.xpub_ids);
    if (!(await lockOwnedWebhook(trx, accountId, webhookId))) return false;
    const set = columnsToSet(update);
    if (Object.keys(set).length) await trx.updateTable("webhooks").set(set).where("id", "=", webhookId).execute();
    if (update.is_active) await releaseHeldEvents(trx, webhookId, update.held_events ?? "push");
    // The new keys first: the list's replacement keeps what they issued.
    const written = update.xpub_ids !== undefined ? await followKeys(trx, webhookId) : [];
    if (update.addresses !== undefined) {
      // Replaces the client's list only; addresses of the webhook's keys stay.
      await unlistAddresses(trx, webhookId, "except", update.addresses);
      const listed = await insertAddresses(trx, webhookId, update.addresses);
      written.push(...update.addresses);
      if (listed > 0) await checkAddressQuota(trx, accountId, context.quotas);
    }
    await checkBucketSizes(trx, webhookId, written);
    await markWebhookChanged(trx, webhookId);
    return true;
  });
}
