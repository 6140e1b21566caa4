import { z } from "../zod.ts";
import { coinSchema, type EventContract } from "./event-contract.ts";
import { MAX_BUCKET_BITS } from "./webhook-buckets.ts";
import { feedSince, WEBHOOK_FEED_STREAM, WEBHOOK_FEED_STREAM_OPTIONS } from "./webhook-changed.ts";

/**
 * `webhook.addresses.<webhook_id>.<bucket_bits>.<bucket>`: the WHOLE current address list of one
 * bucket of a webhook (see webhook-buckets.ts), read together with the webhook's `version` in one
 * database snapshot, so (version, addresses) is a state the registry really had. An empty list
 * clears the bucket. The stream keeps only the newest message per subject, so the bucket messages
 * of a webhook add up to its whole address list; consumers keep the newest version per
 * (webhook, level, bucket) and ignore levels below the webhook's current `bucket_bits`.
 */
export const webhookAddressesSchema = z
  .object({
    webhook_id: z.number().int().positive(),
    coin: coinSchema,
    bucket_bits: z.number().int().min(0).max(MAX_BUCKET_BITS),
    bucket: z.number().int().nonnegative(),
    version: z.number().int().nonnegative(),
    addresses: z.array(z.string().min(1)),
    /** See `feedSince`: addresses new in this version are watched since then. */
    since: feedSince,
  })
  .refine((p) => p.bucket < 2 ** p.bucket_bits, { message: "bucket must be below 2^bucket_bits", path: ["bucket"] });

export const webhookAddresses = {
  name: "webhook.addresses",
  stream: WEBHOOK_FEED_STREAM,
  streamSubjects: "webhook.addresses.*.*.*",
  streamOptions: WEBHOOK_FEED_STREAM_OPTIONS,
  schema: webhookAddressesSchema,
  subject: (p) => `webhook.addresses.${p.webhook_id}.${p.bucket_bits}.${p.bucket}`,
  messageId: (p) => `webhook-addresses:${p.webhook_id}:${p.bucket_bits}:${p.bucket}:${p.version}`,
} satisfies EventContract<typeof webhookAddressesSchema>;
