/** The delivery service's tables (schema `delivery`), as kysely sees them. */
import type { ColumnType, Generated } from "kysely";
import type { Coin } from "@chaingate/contracts";
import type { OperationalEventType } from "../domain/operational-events.ts";

export interface WebhooksTable {
  id: Generated<number>;
  /** The gateway's account id: every query filters on it, so accounts never see each other's webhooks. */
  account_id: number;
  coin: ColumnType<Coin, Coin, never>;
  webhook_url: string;
  secret: string;
  /** 0 or 1, returned raw (v1). */
  is_active: number;
  xpub_ids: ColumnType<number[], number[], number[]>;
  /** Block depth at which transfers are notified (1..MAX_CONFIRMATIONS of the coin). */
  confirmations: ColumnType<number, number | undefined, number>;
  /** ETH: ERC-20 Transfer logs too; always false for BTC and true for TRX (a check constraint). */
  include_tokens: ColumnType<boolean, boolean | undefined, boolean>;
  /** Kept by triggers on webhook_addresses (every insert and delete, whoever writes). */
  address_count: ColumnType<number, never, never>;
  /** The watch-feed level its addresses are published at (2^bucket_bits buckets); the relay raises it, never lowers it. */
  bucket_bits: ColumnType<number, never, number>;
  /** Consecutive deliveries that used up their retries; 20 disables the webhook. */
  failure_count: ColumnType<number, never, number>;
  /** Bumped by every change; `webhook.changed` carries it, consumers ignore older ones. */
  version: ColumnType<string, never, never>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
  deleted_at: ColumnType<Date | null, never, Date | null>;
  /** When the webhook last started being watched (created, or activated again): its meta's `since`. */
  active_since: ColumnType<Date, never, Date>;
  /** Times of the recent test events (the rate window's, at most its quota of them). */
  test_event_times: ColumnType<Date[], never, Date[]>;
  /** The circuit breaker: attempts in a row that got no answer (timeout, connection failure); a reply of any status resets it. */
  consecutive_unreachable: ColumnType<number, never, number>;
  /** While the breaker is open, no attempt starts before this (its cool-down, or the lease of its one attempt in flight). */
  breaker_until: ColumnType<Date | null, never, Date | null>;
  /** The secret a rotation replaced: it still signs, beside `secret`, until `previous_secret_until` (migration 0013). */
  previous_secret: ColumnType<string | null, never, string | null>;
  previous_secret_until: ColumnType<Date | null, never, Date | null>;
  /** Coverage heartbeats every this many blocks (heights divisible by it); null: none (migration 0012). */
  heartbeat_blocks: ColumnType<number | null, number | null | undefined, number | null>;
  /** Coverage heartbeats every this many seconds; null: none (migration 0015). */
  heartbeat_seconds: ColumnType<number | null, number | null | undefined, number | null>;
  /** EVM chains: every ERC-20 transfer, unlisted tokens too; default false (migration 0018). */
  all_tokens: ColumnType<boolean, boolean | undefined, boolean>;
  /** Also notify transfers seen in the mempool (`pending` events; never for TRX); default false (migration 0016). */
  pending: ColumnType<boolean, boolean | undefined, boolean>;
  /** The next clock heartbeat is due at (or after) this; null: at the next tick (migration 0015). */
  heartbeat_due_at: ColumnType<Date | null, never, Date | null>;
  /** The newest event sequence given (0: none yet); the next event gets one more (migration 0009). */
  last_sequence: ColumnType<number, never, number>;
  /** The newest sequence the retention deleted (0: none): a cursor before it is answered 410. */
  pruned_through: ColumnType<number, never, number>;
}

export interface WebhookAddressesTable {
  webhook_id: number;
  address: string;
  /** Generated: the first 16 bits of md5(address), the watch feed's bucket hash (see @chaingate/contracts). */
  bucket_hash: ColumnType<number, never, never>;
  /** The client named it (create, PUT, batch add); false: watched only because a key in `xpub_ids` issued it. */
  listed: ColumnType<boolean, boolean | undefined, boolean>;
  /** An address watched through a key: its issuance time, when earlier than the insert (the trigger dates its outbox row with it). */
  watched_since: ColumnType<Date | null, Date | null | undefined, never>;
}

/** Every `address.issued` the registry consumed, per key, whether or not a webhook named the key then. */
export interface IssuedAddressesTable {
  xpub_id: number;
  address: string;
  /** The derivation index; null for rows recorded before it was kept (migration 0014). */
  address_index: ColumnType<number | null, number | null | undefined, number | null>;
  account_id: number;
  coin: Coin;
  issued_at: Date;
}

/**
 * The outbox: rows committed with each change; the relay publishes what they name from the current
 * state, then deletes them. `slot` null: the webhook's meta; 0..1023: the buckets of that slot (the
 * top 10 bits of the bucket hash; triggers on webhook_addresses write these); -1: every bucket.
 */
export interface WebhookChangesTable {
  id: Generated<number>;
  webhook_id: number;
  slot: ColumnType<number | null, number | null | undefined, never>;
  /**
   * The writer's transaction start (never later than its commit), or an issued address's issuance
   * time: the relay's `since`, and what holds the watermark back while the row is queued.
   */
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** held: stored while its webhook was inactive, waiting for it to be enabled again (pushed or skipped then). */
export type JobStatus = "pending" | "delivered" | "failed" | "skipped" | "held";

export interface DeliveryJobsTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: string;
  coin: Coin;
  /** The notification JSON exactly as sent (signed afresh at every attempt with the current secret). */
  body: string;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  attempts: ColumnType<number, never, number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  last_status: ColumnType<number | null, never, number | null>;
  last_error: ColumnType<string | null, never, string | null>;
  failure_published_at: ColumnType<Date | null, never, Date | null>;
  /** W3C traceparent of the message the job was stored from; its attempts continue that trace. */
  traceparent: ColumnType<string | null, string | null | undefined, never>;
  /** The event's number in its webhook's history (1, 2, 3, … without gaps); null for test events. */
  sequence: ColumnType<number | null, number | null | undefined, never>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  job_id: number;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  created_at: ColumnType<Date, never, never>;
}

/** Keys whose history (addresses issued before the registry recorded issuances) is read once from the xpub service. */
export interface KeyBackfillsTable {
  xpub_id: number;
  account_id: number;
  coin: Coin;
  /** When a webhook first named the key: the addresses the backfill adds are watched since then. */
  requested_at: ColumnType<Date, Date | undefined, never>;
  done_at: ColumnType<Date | null, never, Date | null>;
}

/** The account holding each key the operator moved, as of the newest `key.moved` applied (one row per moved key). */
export interface KeyHoldersTable {
  xpub_id: number;
  account_id: number;
  /** The xpub service's id of that move: one key's moves have increasing ids; an older one is ignored. */
  move_id: number;
  /** The record's counter at that move: its addresses below it were issued before it, so they are the holder's. */
  next_index: number;
  moved_at: Date;
}

/** The outbox of operational events, fanned out to the account's webhooks by the delivery loop (migration 0011). */
export interface OperationalEventsTable {
  id: Generated<number>;
  account_id: number;
  type: OperationalEventType;
  /** The webhook the event is about. */
  subject_webhook_id: number;
  /** What the event says about it (the body's `subject`). */
  subject: ColumnType<Record<string, unknown>, string, never>;
  created_at: ColumnType<Date, never, never>;
}

/** The newest block the scanner processed per chain, from `block.processed` (migration 0015). */
export interface ProcessedTipsTable {
  coin: Coin;
  /** CAIP-2; null when the scanner's event did not say it. */
  chain: string | null;
  height: number;
  hash: string;
  block_time: Date;
  processed_at: ColumnType<Date, Date | undefined, Date>;
}

export interface DeliveryDatabase {
  processed_tips: ProcessedTipsTable;
  operational_events: OperationalEventsTable;
  delivery_jobs: DeliveryJobsTable;
  delivery_attempts: DeliveryAttemptsTable;
  webhooks: WebhooksTable;
  webhook_addresses: WebhookAddressesTable;
  webhook_changes: WebhookChangesTable;
  issued_addresses: IssuedAddressesTable;
  key_backfills: KeyBackfillsTable;
  key_holders: KeyHoldersTable;
}

export const DELIVERY_SCHEMA = "delivery";
