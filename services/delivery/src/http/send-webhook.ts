/**
 * Writes a `{data: webhook}` answer whose `addresses` come from a chunked source, so a webhook of a
 * million addresses is never built as one array or one 45 MB string. Backpressure is the socket's:
 * a slow client slows the reads. The written bytes are counted for a major GC now and then
 * (@chaingate/http gc-nudge.ts): without it, peak RSS grew by up to 193 MB per such read.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Webhook } from "@chaingate/contracts";
import type { Response } from "express";
import { largePayloadGarbage } from "../infra/large-payload-garbage.ts";

/** Stands for the address array in the serialised webhook; JSON.stringify escapes the NUL characters. */
const ADDRESSES_PLACEHOLDER = "\u0000addresses\u0000";

/** A webhook answer without its addresses: they are streamed in their place. */
export type WebhookWithoutAddresses = Omit<Webhook, "addresses">;

export async function sendWebhook(
  res: Response,
  status: number,
  webhook: WebhookWithoutAddresses,
  addressChunks: AsyncIterable<readonly string[]>,
): Promise<void> {
  // Field order as the spec's table: addresses right after webhook_url.
  const { id, user_id, coin, webhook_url, ...rest } = webhook;
  const text = JSON.stringify({ data: { id, user_id, coin, webhook_url, addresses: ADDRESSES_PLACEHOLDER, ...rest } });
  const [head, tail] = text.split(JSON.stringify(ADDRESSES_PLACEHOLDER)) as [string, string];
  async function* body(): AsyncGenerator<string> {
    yield `${head}[`;
    let first = true;
    for await (const chunk of addressChunks) {
      if (!chunk.length) continue;
      const text = `${first ? "" : ","}${chunk.map((address) => JSON.stringify(address)).join(",")}`;
      largePayloadGarbage.count(text.length);
      yield text;
      first = false;
    }
    yield `]${tail}`;
  }
  res.status(status).type("application/json; charset=utf-8");
  // One chunk read ahead, not the default 16.
  await pipeline(Readable.from(body(), { highWaterMark: 1 }), res);
}
