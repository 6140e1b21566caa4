/**
 * Reads the registry's watch feed (stream WEBHOOK_FEED) as a consumer would, for tests: every
 * message with its subject, message id and size, and the watch state it adds up to per webhook.
 */
import { connectBus, type Bus } from "@chaingate/bus";
import {
  isAddressBucket,
  isWebhookMeta,
  webhookAddresses,
  webhookChanged,
  webhookFeed,
  type EventPayload,
  type WebhookFeedMessage,
} from "@chaingate/contracts";

export type FeedMeta = EventPayload<typeof webhookChanged>;
export type FeedBucket = EventPayload<typeof webhookAddresses>;

export interface ObservedMessage {
  payload: WebhookFeedMessage;
  subject: string;
  messageId: string | undefined;
  /** Bytes of the JSON body. */
  bytes: number;
}

export interface WatchFeedObserver {
  bus: Bus;
  messages: ObservedMessage[];
  metas(webhookId: number): FeedMeta[];
  buckets(webhookId: number): FeedBucket[];
  /** The newest meta and the addresses of the newest bucket messages at the meta's level (sorted). */
  stateOf(webhookId: number): { meta: FeedMeta | undefined; addresses: string[] };
  close(): Promise<void>;
}

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** Starts reading the namespace's feed from its first stored message (a new durable each time). */
export async function observeWatchFeed(natsUrl: string, namespace: string, durable = `observer-${Date.now()}`): Promise<WatchFeedObserver> {
  const bus = await connectBus({ url: natsUrl, name: "watch-feed-observer", logger: silent, namespace });
  await bus.ensureStreams([webhookChanged, webhookAddresses]);
  const messages: ObservedMessage[] = [];
  const consumption = await bus.consume(webhookFeed, {
    durable,
    maxAckPending: 1,
    handle: async (payload, info) =>
      void messages.push({ payload, subject: info.subject, messageId: info.messageId, bytes: Buffer.byteLength(JSON.stringify(payload)) }),
  });
  const metas = (webhookId: number) =>
    messages.map((m) => m.payload).filter((p): p is FeedMeta => isWebhookMeta(p) && p.webhook_id === webhookId);
  const buckets = (webhookId: number) =>
    messages.map((m) => m.payload).filter((p): p is FeedBucket => isAddressBucket(p) && p.webhook_id === webhookId);
  return {
    bus,
    messages,
    metas,
    buckets,
    stateOf(webhookId) {
      const meta = metas(webhookId).reduce<FeedMeta | undefined>(
        (newest, m) => (!newest || m.version > newest.version ? m : newest),
        undefined,
      );
      const newest = new Map<number, FeedBucket>();
      for (const bucket of buckets(webhookId)) {
        if (bucket.bucket_bits !== meta?.bucket_bits) continue;
        const known = newest.get(bucket.bucket);
        if (!known || bucket.version > known.version) newest.set(bucket.bucket, bucket);
      }
      return { meta, addresses: meta?.deleted ? [] : [...newest.values()].flatMap((b) => b.addresses).sort() };
    },
    async close() {
      await consumption.stop();
      await bus.close();
    },
  };
}
