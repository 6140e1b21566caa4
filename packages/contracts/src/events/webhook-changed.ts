import { z } from "../zod.ts";
import { coinSchema, type EventContract, type StreamOptions } from "./event-contract.ts";
import { MAX_BUCKET_BITS } from "./webhook-buckets.ts";

/**
 * The stream of the registry → scanner watch feed. It keeps the newest message of every subject
 * and nothing ages out, so it is itself the compacted snapshot of the registry: a scanner that
 * starts empty rebuilds its whole projection from it (see `webhook.addresses`).
 */
export const WEBHOOK_FEED_STREAM = "WEBHOOK_FEED";
export const WEBHOOK_FEED_STREAM_OPTIONS: StreamOptions = {
  subjects: ["webhook.changed.*", "webhook.addresses.*.*.*", "webhook.watermark"],
  maxMsgsPerSubject: 1,
  maxAgeMs: 0,
};

/**
 * When the changes a feed message carries first took effect in the registry (ISO 8601, ms): the
 * earliest registry time of the changes in this message that the previous version of its subject
 * did not have; for an address watched through an extended key, its issuance time when earlier.
 * A consumer matches addresses new in this message against blocks it processed since then without
 * them (a bounded rescan), so an address that reaches it late is still notified. Absent: no earlier
 * time is known (consumers use the time they receive it).
 */
export const feedSince = z.iso.datetime({ offset: true }).optional();

/** Whether a consumer of the feed matches transfers for the webhook of this meta. */
export function isWatched(meta: { is_active: boolean; watch?: boolean | undefined; deleted: boolean }): boolean {
  return !meta.deleted && (meta.watch ?? meta.is_active);
}

/**
 * `webhook.changed.<webhook_id>`: a webhook's settings as the registry holds them at `version`,
 * without its addresses (those travel per bucket as `webhook.addresses`). The registry publishes a
 * change's bucket messages before its meta message, so a consumer reading the stream in order has
 * the buckets of `bucket_bits` when the meta arrives.
 */
export const webhookChangedSchema = z.object({
  webhook_id: z.number().int().positive(),
  coin: coinSchema,
  is_active: z.boolean(),
  /**
   * Whether the scanner matches transfers for it: true while the webhook exists, active or not (an
   * inactive webhook's events are stored under their sequence and held, not pushed, until it is
   * enabled again). Absent in messages of a registry before it: read `is_active`.
   */
  watch: z.boolean().optional(),
  /** Final: the webhook's bucket subjects are purged, and bucket messages arriving later are dropped. */
  deleted: z.boolean(),
  /** From one sequence bumped by every registry change of the webhook; consumers keep the newest. */
  version: z.number().int().nonnegative(),
  /** Depth a transfer's block must reach before it is notified (1 = notified when processed). */
  confirmations: z.number().int().positive(),
  /** ETH: also ERC-20 Transfer logs of the scanner's whitelist. Always false for BTC, true for TRX. */
  include_tokens: z.boolean(),
  /** EVM chains: every ERC-20 Transfer log, listed or not (issue #31). Absent in messages of a registry before it: false. */
  all_tokens: z.boolean().optional(),
  /** Also match mempool transactions (issue #29). Absent in messages of a registry before it: false. */
  pending: z.boolean().optional(),
  /** Addresses the webhook watches at `version` (the sum of its buckets' lists). */
  address_count: z.number().int().nonnegative(),
  /** The bucket level its addresses are published at (2^bucket_bits buckets); it only grows. */
  bucket_bits: z.number().int().min(0).max(MAX_BUCKET_BITS),
  /** See `feedSince`: for a webhook that starts being watched (created, activated), since when. */
  since: feedSince,
});

export const webhookChanged = {
  name: "webhook.changed",
  stream: WEBHOOK_FEED_STREAM,
  streamSubjects: "webhook.changed.*",
  streamOptions: WEBHOOK_FEED_STREAM_OPTIONS,
  schema: webhookChangedSchema,
  subject: (p) => `webhook.changed.${p.webhook_id}`,
  messageId: (p) => `webhook:${p.webhook_id}:${p.version}`,
} satisfies EventContract<typeof webhookChangedSchema>;
