import type { Coin } from "@chaingate/contracts";

export interface WebhookRecord {
  id: number;
  account_id: number;
  coin: Coin;
  webhook_url: string;
  secret: string;
  is_active: number;
  xpub_ids: number[];
  confirmations: number;
  include_tokens: boolean;
  heartbeat_blocks: number | null;
  heartbeat_seconds: number | null;
  pending: boolean;
  all_tokens: boolean;
  last_sequence: number;
  failure_count: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  /** Every watched address (kept by the address table's triggers). */
  address_count: number;
}

/** The `webhooks` columns a WebhookRecord is read from. */
export const WEBHOOK_RECORD_COLUMNS = [
  "id",
  "account_id",
  "coin",
  "webhook_url",
  "secret",
  "is_active",
  "xpub_ids",
  "confirmations",
  "include_tokens",
  "heartbeat_blocks",
  "heartbeat_seconds",
  "pending",
  "all_tokens",
  "last_sequence",
  "failure_count",
  "version",
  "created_at",
  "updated_at",
  "address_count",
] as const;
