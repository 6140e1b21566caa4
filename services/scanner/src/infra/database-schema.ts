/** The scanner's tables (schema `scanner`), as kysely sees them. */
import type { ColumnType, Generated } from "kysely";

export const SCANNER_SCHEMA = "scanner";

/** Processed blocks of the kept window; the newest per coin is the cursor. */
export interface BlocksTable {
  coin: string;
  height: number;
  hash: string;
  parent_hash: string | null;
  time_ms: ColumnType<number, number, number>;
}

/** Matches of the kept window: pending ones wait for depth, published ones may still be reverted. */
export interface MatchesTable {
  /** The event id of its "transfer" notification. */
  id: string;
  coin: string;
  height: number;
  block_hash: string;
  time_ms: number;
  /** The Match (transfer, webhook, watched address, confirmations) as JSON. */
  match: ColumnType<unknown, string, string>;
  /** Height at which it is due: height + confirmations - 1. */
  due_height: number;
  published_confirmations: number | null;
}

/** The scanner's projection of the registry: the newest `webhook.changed` (meta) per webhook. */
export interface WebhooksTable {
  webhook_id: number;
  coin: string;
  is_active: boolean;
  deleted: boolean;
  version: number;
  confirmations: number | null;
  include_tokens: boolean | null;
  address_count: number;
  /** The level whose buckets make up its address list. */
  bucket_bits: number;
  /** From a sequence on every write: replicas read what changed since their last refresh. */
  change_seq: Generated<number>;
}

/** The newest `webhook.addresses` per (webhook, level, bucket): that bucket's whole list. */
export interface WebhookBucketsTable {
  webhook_id: number;
  bucket_bits: number;
  bucket: number;
  coin: string;
  version: number;
  addresses: ColumnType<string[], string, string>;
  /** The same sequence as webhooks.change_seq. */
  change_seq: Generated<number>;
}

/** One row: the durable consumer of the watch feed that fills this database's projection. */
export interface WatchFeedConsumerTable {
  name: string;
}

export interface ScannerDatabase {
  watch_feed_consumer: WatchFeedConsumerTable;
  blocks: BlocksTable;
  matches: MatchesTable;
  webhooks: WebhooksTable;
  webhook_buckets: WebhookBucketsTable;
}
