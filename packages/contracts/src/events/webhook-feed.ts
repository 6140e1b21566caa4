import { z } from "../zod.ts";
import type { EventContract } from "./event-contract.ts";
import { webhookAddresses, webhookAddressesSchema } from "./webhook-addresses.ts";
import { webhookChanged, webhookChangedSchema, WEBHOOK_FEED_STREAM } from "./webhook-changed.ts";

/**
 * Both message kinds of the watch feed (`webhook.changed.*` and `webhook.addresses.*.*.*`) as ONE
 * consumable contract, so a consumer reads them in stream order (a change's buckets before its
 * meta). Consume only: its subject `webhook.>` overlaps the two real contracts, so it must never be
 * given to `ensureStreams` (NATS would refuse the overlap); publish with the two contracts.
 */
export const webhookFeedSchema = z.union([webhookAddressesSchema, webhookChangedSchema]);
export type WebhookFeedMessage = z.infer<typeof webhookFeedSchema>;

/** Whether a feed message is a bucket's address list (otherwise it is a webhook's meta). */
export function isAddressBucket(message: WebhookFeedMessage): message is z.infer<typeof webhookAddressesSchema> {
  return "addresses" in message;
}

export const webhookFeed = {
  name: "webhook.feed",
  stream: WEBHOOK_FEED_STREAM,
  streamSubjects: "webhook.>",
  schema: webhookFeedSchema,
  subject: (p) => (isAddressBucket(p) ? webhookAddresses.subject(p) : webhookChanged.subject(p)),
  messageId: (p) => (isAddressBucket(p) ? webhookAddresses.messageId(p) : webhookChanged.messageId(p)),
} satisfies EventContract<typeof webhookFeedSchema>;
