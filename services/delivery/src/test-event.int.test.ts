/**
 * `POST /webhooks/{id}/test` against a real delivery: a signed event shaped like a transfer (so a
 * receiver's crediting code can run on it), flagged as a test, worth nothing and not numbered.
 */
import { testNotificationSchema } from "@chaingate/contracts";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { expect } from "vitest";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

it("sends a signed test event shaped like a transfer, flagged, worth nothing and not numbered", async ({ harness }) => {
  const { id, secret } = await harness.createWebhook({ path: "/test-event" });
  const queued = await harness.api("POST", `/api/v1/webhooks/${id}/test`);
  expect(queued.status).toBe(202);
  await expect.poll(() => harness.receiver.received.filter((r) => r.path === "/test-event").length, { timeout: 10_000 }).toBe(1);
  const request = harness.receiver.received.find((r) => r.path === "/test-event")!;
  const verified = new StandardWebhook(secret, { format: "raw" }).verify(request.body, request.headers as Record<string, string>);
  expect(testNotificationSchema.parse(verified)).toMatchObject({
    event_id: queued.body.data.event_id,
    type: "test",
    test: true,
    webhook_id: id,
    coin: "BTC",
    currency: "BTC",
    watched_address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    version: 1,
    direction: "in",
    xpub: null,
    amount: "0",
    raw_amount: "0",
    decimals: 8,
    confirmations: 1,
  });
  expect(request.headers["x-service-sequence"]).toBeUndefined();
});
