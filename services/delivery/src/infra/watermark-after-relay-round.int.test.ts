/**
 * The registry's watermark (`webhook.watermark`) right after a relay round, over a real Postgres and
 * NATS: with ticks ten minutes apart, a published change is followed by a watermark at once, not at
 * the next tick. Read in stream order, as the scanner reads the feed. The watermark and `since`
 * otherwise: watch-feed-times.int.test.ts.
 */
import { randomBytes } from "node:crypto";
import { isWatermark, isWebhookMeta } from "@chaingate/contracts";
import { describe, expect } from "vitest";
import { callAsAccount } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const URL_OK = "http://93.184.216.34/hook";
const ACCOUNT = 7;
const ethAddress = () => `0x${randomBytes(20).toString("hex")}`;

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WATCH_WATERMARK_INTERVAL_MS: "600000" } });

describe("the watermark after a relay round", () => {
  it("follows a published change at once, not at the next tick", async ({ delivery, watchFeed }) => {
    const seen = () => watchFeed.messages.map((message) => message.payload);
    // The start's first watermark, then nothing for ten minutes unless a round publishes.
    await expect.poll(() => seen().filter(isWatermark).length, { timeout: 10_000 }).toBe(1);
    const created = await callAsAccount(delivery.url, "POST", "/api/v1/webhooks", ACCOUNT, {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: [ethAddress()],
    });
    expect(created.status).toBe(201);
    const answered = Date.now();
    await expect.poll(() => seen().filter(isWatermark).length, { timeout: 5_000 }).toBe(2);
    expect(Date.now() - answered).toBeLessThan(3_000);
    expect(seen().findIndex((m) => isWebhookMeta(m))).toBeLessThan(seen().findLastIndex((m) => isWatermark(m)));
  });
});
