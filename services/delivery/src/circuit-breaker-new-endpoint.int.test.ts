/**
 * The circuit breaker of a webhook whose endpoint stopped answering closes when the client points
 * the webhook at a new endpoint: its backlog goes there at once, not after the cool-down (here far
 * longer than the test). Real Postgres, NATS and a local receiver; the service in this process with
 * short timeouts. The breaker itself: circuit-breaker.int.test.ts.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { transferFor } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const TIMEOUT_MS = 500;
const THRESHOLD = 3;
const EVENTS = 20;

const it = deliveryTest;
deliveryTest.scoped({
  deliverySettings: {
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    DELIVERY_BREAKER_THRESHOLD: String(THRESHOLD),
    // A cool-down far longer than the test: only the reset lets anything through in time.
    DELIVERY_BREAKER_COOL_DOWN_MS: "600000",
    // 5 s → 5 ms, 5 min → 300 ms: without the breaker a dead endpoint would see attempt after attempt.
    DELIVERY_RETRY_SCALE: "0.001",
  },
});

it("closes the breaker when the client points the webhook at a new endpoint: its backlog goes there at once, not after the cool-down", async ({
  harness,
}) => {
  const { bus, receiver, api } = harness;
  receiver.on("/gone", () => {});
  receiver.on("/moved", (_request, response) => void response.end("ok"));
  const webhook = await harness.createWebhook({ path: "/gone", coin: "ETH" });
  for (let n = 0; n < EVENTS; n++) await bus.publish(transferMatched, transferFor(webhook.id, "ETH"));
  await expect.poll(() => receiver.received.filter((r) => r.path === "/gone").length, { timeout: 10_000 }).toBeGreaterThanOrEqual(8);
  // The first attempts time out: the breaker is open for ten minutes.
  await new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS));
  expect((await api("PUT", `/api/v1/webhooks/${webhook.id}`, 1, { webhook_url: `${receiver.url}/moved` })).status).toBe(200);
  await expect.poll(() => receiver.received.filter((r) => r.path === "/moved").length, { timeout: 10_000 }).toBe(EVENTS);
});
