import { z } from "../zod.ts";
import type { EventContract } from "./event-contract.ts";
import { WEBHOOK_FEED_STREAM, WEBHOOK_FEED_STREAM_OPTIONS } from "./webhook-changed.ts";

/**
 * `webhook.watermark`: every registry change committed before `registry_time` is in the watch feed
 * ahead of this message. The registry publishes it periodically (a heartbeat while nothing
 * changes) and after relaying changes; several replicas may each publish theirs, so consumers keep
 * the newest. A consumer whose projection holds a watermark of time T has the registry's watch list
 * as it was at T: the scanner matches a block only once it holds a watermark recent enough for that
 * block, and waits (instead of matching against a stale list) when the feed stops or lags.
 */
export const webhookWatermarkSchema = z.object({
  /** The registry's database clock, ISO 8601 with milliseconds. */
  registry_time: z.iso.datetime({ offset: true }),
});

export const webhookWatermark = {
  name: "webhook.watermark",
  stream: WEBHOOK_FEED_STREAM,
  streamSubjects: "webhook.watermark",
  streamOptions: WEBHOOK_FEED_STREAM_OPTIONS,
  schema: webhookWatermarkSchema,
  subject: () => "webhook.watermark",
  messageId: (p) => `webhook-watermark:${p.registry_time}`,
} satisfies EventContract<typeof webhookWatermarkSchema>;
