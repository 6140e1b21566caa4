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
  /** When the follower refreshed its watch index before matching it (scanner clock); null before migration 0005. */
  matched_at_ms: ColumnType<number | null, number | undefined, number>;
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
  /** How many times this transfer was reverted before it was matched (see transferKey). */
  generation: ColumnType<number, number | undefined, number>;
}

/** Revert counts of transfers, by transfer key (see transferKey), kept 30 days after the last revert. */
export interface RevertedTransfersTable {
  coin: string;
  transfer_key: string;
  reverts: number;
  reverted_at: ColumnType<Date, Date | undefined, Date>;
}

/** The scanner's projection of the registry: the newest `webhook.changed` (meta) per webhook. */
export interface WebhooksTable {
  webhook_id: number;
  coin: string;
  /** Whether transfers are matched for it (`isWatched` of its meta: an inactive webhook still is, its events held by the delivery). */
  is_active: boolean;
  deleted: boolean;
  version: number;
  confirmations: number | null;
  include_tokens: boolean | null;
  /** Matched against the mempool too (issue #29). */
  pending: ColumnType<boolean, boolean | undefined, boolean>;
  /** Every ERC-20 Transfer, of any contract (issue #31). */
  all_tokens: ColumnType<boolean, boolean | undefined, boolean>;
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

/** One row: the newest registry watermark the projection holds (`webhook.watermark`). */
export interface WatchWatermarkTable {
  id: number;
  registry_time_ms: number;
}

/** Addresses that became watched, to be matched against the kept blocks matched without them. */
export interface PendingRescansTable {
  id: Generated<number>;
  coin: string;
  webhook_id: number;
  /** null: every address the webhook watches. */
  addresses: ColumnType<string[] | null, string | null, string | null>;
  since_ms: number;
}

/** One row: the durable consumer of the watch feed that fills this database's projection. */
export interface WatchFeedConsumerTable {
  name: string;
}

/** Per lease (`scanner:BTC`, …): who holds it, on which Postgres session, and when it last renewed it. */
export interface LeaseRenewalsTable {
  name: string;
  holder: string;
  holder_pid: number;
  epoch: ColumnType<string, string | number, string | number>;
  renewed_at: Date;
}

/**
 * Transfers seen in the mempool for webhooks with `pending` on (issue #29), one row per transfer and
 * generation, kept until a day after their outcome: what was announced, and what became of it.
 */
export interface MempoolTransfersTable {
  coin: string;
  /** transferKey of the match: coin, txid, position, currency, webhook. */
  transfer_key: string;
  generation: number;
  webhook_id: number;
  txid: string;
  /** The "pending" event as published; its outcome is built from it. */
  event: ColumnType<unknown, string, string>;
  /** What the transaction spends, as conflicts are found: outpoints "txid:n" (BTC). */
  spends: string[];
  /** When the scanner last found it missing from the mempool; null while it is there. */
  left_at_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** null while open; then "mined" (the transfer is its outcome), "replaced", "dropped", "double_spent". */
  outcome: string | null;
  decided_at_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ScannerDatabase {
  mempool_transfers: MempoolTransfersTable;
  lease_renewals: LeaseRenewalsTable;
  watch_feed_consumer: WatchFeedConsumerTable;
  watch_watermark: WatchWatermarkTable;
  pending_rescans: PendingRescansTable;
  token_decimals: TokenDecimalsTable;
  blocks: BlocksTable;
  matches: MatchesTable;
  reverted_transfers: RevertedTransfersTable;
  webhooks: WebhooksTable;
  webhook_buckets: WebhookBucketsTable;
}

/** `decimals()` of unlisted ERC-20 contracts, read once (migration 0008); null: the contract has none. */
export interface TokenDecimalsTable {
  coin: string;
  /** Lower case. */
  contract: string;
  decimals: number | null;
  read_at: ColumnType<Date, never, never>;
}
