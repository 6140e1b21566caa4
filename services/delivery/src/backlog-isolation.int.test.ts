/**
 * A dead subscriber's backlog larger than what one claim reads (candidates are a few per free
 * slot) does not hold back a healthy webhook: the claim skips webhooks already at their cap.
 * Real Postgres, NATS and a local receiver; a small DELIVERY_CONCURRENCY makes the candidate
 * window small.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { transferFor } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const CONCURRENCY = 16;
/** Far more than the 4 candidates per free slot a claim reads. */
const DEAD_BACKLOG = 300;
const TIMEOUT_MS = 3_000;

const it = deliveryTest;
deliveryTest.scoped({
  deliverySettings: {
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
  },
});

it("a dead subscriber's backlog of due jobs does not delay a healthy webhook", async ({ harness }) => {
  const { bus, receiver } = harness;
  receiver.on("/dead", () => {});
  const dead = await harness.createWebhook({ path: "/dead", coin: "ETH" });
  const healthy = await harness.createWebhook({ path: "/healthy", coin: "ETH" });
  await Promise.all(Array.from({ length: DEAD_BACKLOG }, () => bus.publish(transferMatched, transferFor(dead.id, "ETH"))));
  // The dead webhook holds its 8 slots with the rest of its backlog due behind them.
  await expect.poll(() => receiver.received.filter((r) => r.path === "/dead").length, { timeout: 10_000 }).toBe(8);
  const publishedAt = new Map<string, number>();
  for (let n = 0; n < 20; n++) {
    const event = transferFor(healthy.id, "ETH");
    publishedAt.set(event.event_id, Date.now());
    await bus.publish(transferMatched, event);
  }
  await expect.poll(() => receiver.received.filter((r) => r.path === "/healthy").length, { timeout: 10_000 }).toBe(20);
  const latencies = receiver.received
    .filter((r) => r.path === "/healthy")
    .map((r) => r.at - publishedAt.get(r.headers["webhook-id"] as string)!);
  // Each arrives well within one dead attempt's timeout (nothing waited for a dead slot to free up).
  expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS / 2);
});
