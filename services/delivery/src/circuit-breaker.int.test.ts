/**
 * The circuit breaker of a webhook whose endpoint stops answering: after DELIVERY_BREAKER_THRESHOLD
 * attempts in a row without an answer, its attempts go one at a time, each a cool-down after the
 * last; no job fails or is skipped for it (only the spacing changes), and once the endpoint
 * answers again the breaker closes and the backlog goes out at full speed. Two replicas share the
 * jobs. Real Postgres, NATS and a local receiver; the service in this process with short timeouts.
 * A breaker that a new endpoint closes: circuit-breaker-new-endpoint.int.test.ts.
 */
import { transferMatched } from "@chaingate/contracts";
import { testNamespace } from "@chaingate/testing";
import { expect } from "vitest";
import type { DeliveryService } from "./create-delivery-service.ts";
import { startTestDelivery, transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const TIMEOUT_MS = 500;
const THRESHOLD = 3;
const COOL_DOWN_MS = 1_500;
const EVENTS = 20;
/** Arrivals this soon after the row showed the breaker open were claimed before it opened. */
const OPEN_MARGIN_MS = 200;
/** How long the endpoint stays dead once the breaker opened. */
const DEAD_FOR_MS = 6_000;

deliveryTest.scoped({
  deliverySettings: {
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    DELIVERY_BREAKER_THRESHOLD: String(THRESHOLD),
    DELIVERY_BREAKER_COOL_DOWN_MS: String(COOL_DOWN_MS),
    // 5 s → 5 ms, 5 min → 300 ms: without the breaker a dead endpoint would see attempt after attempt.
    DELIVERY_RETRY_SCALE: "0.001",
  },
});

/**
 * A second replica on the same database (on a namespace of its own), running for the whole file: the
 * one attempt of an open breaker is one over both.
 */
const it = deliveryTest.extend<{ replica: DeliveryService }>({
  replica: [
    async ({ database, deliveryEnv, receiver }, use) => {
      const replica = await startTestDelivery(database.connectionString, { ...deliveryEnv, NATS_NAMESPACE: testNamespace() });
      try {
        await use(replica);
      } finally {
        // The receiver first: attempts it never answers end now instead of at their timeout.
        await receiver.close();
        await replica.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

it("spaces out a dead endpoint's attempts, one at a time, and lets the backlog through once it answers", async ({ harness, replica }) => {
  const { bus, receiver } = harness;
  let answering = false;
  receiver.on("/flaky", (_request, response) => void (answering && response.end("ok")));
  const webhook = await harness.createWebhook({ path: "/flaky", coin: "ETH" });
  for (let n = 0; n < EVENTS; n++) await bus.publish(transferMatched, transferFor(webhook.id, "ETH"));
  const arrivals = () => receiver.received.filter((r) => r.path === "/flaky").map((r) => r.at);
  // The first attempts go out together (8 per webhook per replica) and time out: that opens the breaker.
  await expect.poll(() => arrivals().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(8);
  // Attempts claimed before the breaker opened still go out (a retry due in 5 ms may be claimed by the
  // other replica while the third timeout is being recorded): count from the moment the row says open.
  await expect.poll(() => breakerRun(harness, webhook.id), { timeout: 10_000 }).toBeGreaterThanOrEqual(THRESHOLD);
  const opened = Date.now() + OPEN_MARGIN_MS;
  await new Promise((resolve) => setTimeout(resolve, DEAD_FOR_MS));
  const probes = arrivals().filter((at) => at > opened);
  const gaps = probes.slice(1).map((at, n) => at - probes[n]!);
  process.stdout.write(`breaker: ${arrivals().length} attempts, ${DEAD_FOR_MS} ms dead; gaps between probes ${gaps.join(", ")} ms\n`);
  // One attempt at a time, each a timeout plus a cool-down after the previous one.
  expect(probes.length).toBeGreaterThanOrEqual(1);
  expect(probes.length).toBeLessThanOrEqual(Math.ceil(DEAD_FOR_MS / (TIMEOUT_MS + COOL_DOWN_MS)) + 1);
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(TIMEOUT_MS + COOL_DOWN_MS);
  // The delivery log: every job still pending, none failed for the breaker.
  expect(await deliveries(harness, webhook.id, "pending")).toBe(EVENTS);
  // Operators see it on either replica's /metrics.
  expect(await breakersOpen(harness.delivery.url)).toBe(1);
  expect(await breakersOpen(replica.url)).toBe(1);

  answering = true;
  const recovered = Date.now();
  await expect.poll(() => deliveries(harness, webhook.id, "delivered"), { timeout: 10_000 }).toBe(EVENTS);
  // The next probe closes the breaker; the rest needs no cool-down.
  expect(Date.now() - recovered).toBeLessThan(TIMEOUT_MS + COOL_DOWN_MS + 2_000);
  expect((await harness.api("GET", `/api/v1/webhooks/${webhook.id}`)).body.data.is_active).toBe(1);
  expect(await breakersOpen(harness.delivery.url)).toBe(0);
});

/** The webhook's run of attempts without an answer, as its row holds it. */
async function breakerRun(harness: DeliveryHarness, webhookId: number): Promise<number> {
  const [row] = await harness.query<{ consecutive_unreachable: number }>(
    "select consecutive_unreachable from delivery.webhooks where id = $1",
    [webhookId],
  );
  return row!.consecutive_unreachable;
}

/** How many deliveries of the webhook the log shows in `status`. */
async function deliveries(harness: DeliveryHarness, webhookId: number, status: string): Promise<number> {
  const answer = await harness.api("GET", `/api/v1/webhooks/${webhookId}/deliveries?status=${status}&per_page=1`);
  return (answer.body as unknown as { meta: { total: number } }).meta.total;
}

it("does not space out holding: an inactive webhook's backlog is held at once, open breaker or not", async ({ harness }) => {
  const { bus, receiver, api } = harness;
  receiver.on("/off", () => {});
  const webhook = await harness.createWebhook({ path: "/off", coin: "ETH" });
  for (let n = 0; n < EVENTS; n++) await bus.publish(transferMatched, transferFor(webhook.id, "ETH"));
  await expect.poll(() => receiver.received.filter((r) => r.path === "/off").length, { timeout: 10_000 }).toBeGreaterThanOrEqual(8);
  // The first attempts time out: the breaker is open, with most jobs never tried.
  await new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS));
  expect((await api("PUT", `/api/v1/webhooks/${webhook.id}`, 1, { is_active: false })).status).toBe(200);
  // Each job is held once due (the tried ones after their compressed retry delay), not one per lease.
  await expect.poll(() => deliveries(harness, webhook.id, "held"), { timeout: 10_000 }).toBe(EVENTS);
});

/** `delivery_webhook_breakers_open` on a replica's /metrics. */
async function breakersOpen(serviceUrl: string): Promise<number> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("delivery_webhook_breakers_open "));
  return Number(line?.split(" ")[1]);
}
