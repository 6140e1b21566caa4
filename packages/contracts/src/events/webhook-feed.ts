import { z } from "../zod.ts";
import type { EventContract } from "./event-contract.ts";
import { webhookAddresses, webhookAddressesSchema } from "./webhook-addresses.ts";
import { webhookChanged, webhookChangedSchema, WEBHOOK_FEED_STREAM } from "./webhook-changed.ts";
import { webhookWatermark, webhookWatermarkSchema } from "./webhook-watermark.ts";

/**
 * Every message kind of the watch feed (`webhook.changed.*`, `webhook.addresses.*.*.*` and
 * `webhook.watermark`) as ONE consumable contract, so a consumer reads them in stream order (a
 * change's buckets before its meta, a watermark after what it covers). Consume only: its subject `webhook.>` overlaps the two real contracts, so it must never be
 * given to `ensureStreams` (NATS would refuse the overlap); publish with the two contracts.
 */
export const webhookFeedSchema = z.union([webhookAddressesSchema, webhookChangedSchema, webhookWatermarkSchema]);
export type WebhookFeedMessage = z.infer<typeof webhookFeedSchema>;

/** Whether a feed message is a bucket's address list. */
export function isAddressBucket(message: WebhookFeedMessage): message is z.infer<typeof webhookAddressesSchema> {
  return "addresses" in message;
}

/** Whether a feed message is the registry's watermark. */
export function isWatermark(message: WebhookFeedMessage): message is z.infer<typeof webhookWatermarkSchema> {
  return "registry_time" in message;
}

/** Whether a feed message is a webhook's meta. */
export function isWebhookMeta(message: WebhookFeedMessage): message is z.infer<typeof webhookChangedSchema> {
  return !isAddressBucket(message) && !isWatermark(message);
}

function contractOf(message: WebhookFeedMessage): EventContract {
  return isAddressBucket(message) ? webhookAddresses : isWatermark(message) ? webhookWatermark : webhookChanged;
}

export const webhookFeed = {
  name: "webhook.feed",
  stream: WEBHOOK_FEED_STREAM,
  streamSubjects: "webhook.>",
  schema: webhookFeedSchema,
  subject: (p) => contractOf(p).subject(p),
  messageId: (p) => contractOf(p).messageId(p),
} satisfies EventContract<typeof webhookFeedSchema>;
