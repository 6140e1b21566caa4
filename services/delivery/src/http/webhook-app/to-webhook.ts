import type { Webhook } from "@chaingate/contracts";
import type { WebhookRecord } from "../../infra/webhook-repository/webhook-record.ts";
import type { WebhookWithoutAddresses } from "../send-webhook.ts";

/**
 * The spec's webhook without its addresses (the list adds its capped array, single answers stream
 * them): is_active raw 0/1 except in the create answer, which echoes the boolean.
 */
export function toWebhook(record: WebhookRecord, isActive: Webhook["is_active"] = record.is_active as 0 | 1): WebhookWithoutAddresses {
  return {
    id: record.id,
    user_id: record.account_id,
    coin: record.coin,
    webhook_url: record.webhook_url,
    address_count: record.address_count,
    secret: record.secret,
    is_active: isActive,
    xpub_ids: record.xpub_ids.map(Number),
    confirmations: record.confirmations,
    include_tokens: record.include_tokens,
    heartbeat_blocks: record.heartbeat_blocks,
    heartbeat_seconds: record.heartbeat_seconds,
    pending: record.pending,
    all_tokens: record.all_tokens,
    last_sequence: Number(record.last_sequence),
    last_triggered_at: null,
    deleted_at: null,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}
