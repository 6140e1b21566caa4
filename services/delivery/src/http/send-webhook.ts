/**
 * Writes the answers that carry webhooks with their addresses from chunked sources: `{data:
 * webhook}` with every address (a webhook of a million addresses is never built as one array or
 * one 45 MB string), and the list's `{data: [webhook], meta}` one webhook at a time (a page of 500
 * webhooks at the list's cap of 1,000 addresses is never built as 500,000 rows). Backpressure is
 * the socket's: a slow client slows the reads. The written bytes are counted for a major GC now
 * and then (@chaingate/http gc-nudge.ts): without it, peak RSS grew by up to 193 MB per such read.
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

/** The webhook's JSON before and after its `addresses` array, in the spec's field order (addresses right after webhook_url). */
function splitAtAddresses(webhook: WebhookWithoutAddresses): [head: string, tail: string] {
  const { id, user_id, coin, webhook_url, ...rest } = webhook;
  const text = JSON.stringify({ id, user_id, coin, webhook_url, addresses: ADDRESSES_PLACEHOLDER, ...rest });
  return text.split(JSON.stringify(ADDRESSES_PLACEHOLDER)) as [string, string];
}

/** Streams `parts` as the JSON answer, one part read ahead (not the default 16). */
async function sendJsonParts(res: Response, status: number, parts: AsyncIterable<string>): Promise<void> {
  res.status(status).type("application/json; charset=utf-8");
  await pipeline(Readable.from(parts, { highWaterMark: 1 }), res);
}

export async function sendWebhook(
  res: Response,
  status: number,
  webhook: WebhookWithoutAddresses,
  addressChunks: AsyncIterable<readonly string[]>,
): Promise<void> {
  const [head, tail] = splitAtAddresses(webhook);
  async function* body(): AsyncGenerator<string> {
    yield `{"data":${head}[`;
    let first = true;
    for await (const chunk of addressChunks) {
      if (!chunk.length) continue;
      const text = `${first ? "" : ","}${chunk.map((address) => JSON.stringify(address)).join(",")}`;
      largePayloadGarbage.count(text.length);
      yield text;
      first = false;
    }
    yield `]${tail}}`;
  }
  await sendJsonParts(res, status, body());
}

/** `addressReads` yields the addresses of the next webhooks of `webhooks`, one array per webhook, in their order. */
export async function sendWebhookPage(
  res: Response,
  webhooks: readonly WebhookWithoutAddresses[],
  addressReads: AsyncIterable<ReadonlyArray<readonly string[]>>,
  meta: Record<string, number>,
): Promise<void> {
  async function* body(): AsyncGenerator<string> {
    yield `{"data":[`;
    let written = 0;
    for await (const read of addressReads) {
      // One part per read: a few webhooks, about 200 KB at the cap.
      let text = "";
      for (const addresses of read) {
        const [head, tail] = splitAtAddresses(webhooks[written]!);
        text += `${written > 0 ? "," : ""}${head}${JSON.stringify(addresses)}${tail}`;
        written++;
      }
      largePayloadGarbage.count(text.length);
      yield text;
    }
    yield `],"meta":${JSON.stringify(meta)}}`;
  }
  await sendJsonParts(res, 200, body());
}
