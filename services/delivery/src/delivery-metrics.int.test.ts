/**
 * The delivery's /metrics after real deliveries to a local receiver over real Postgres and NATS:
 * attempts by chain and outcome with their latency, jobs failed for good, auto-disabled webhooks,
 * events consumed, and the queue depth read when scraped.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { MAX_ATTEMPTS } from "./domain/retry-schedule.ts";
import { AUTO_DISABLE_FAILURES } from "./domain/attempt-outcome.ts";
import { transferFor } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest;
deliveryTest.scoped({
  deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_RETRY_SCALE: "0.0001", DELIVERY_TIMEOUT_MS: "8000" },
});

/** The service's /metrics page. */
async function scrape(serviceUrl: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}
/** The value of one sample, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
const poll = (serviceUrl: string, series: string) => async () => sample(await scrape(serviceUrl), series);

it("counts attempts by outcome and chain with their latency, failed jobs, disabled webhooks and consumed events; shows the queue when scraped", async ({
  harness,
}) => {
  const { bus, receiver, delivery } = harness;
  receiver.on("/gone", (_, res) => void res.writeHead(410).end());
  receiver.on("/down", (_, res) => void res.writeHead(500).end());
  receiver.on("/hang", () => {});
  // An account each: a failure's operational events (delivery.exhausted, webhook.disabled) go to the
  // account's other webhooks, and would be counted among these attempts.
  const ok = await harness.createWebhook({ path: "/ok", coin: "BTC", accountId: 1 });
  const gone = await harness.createWebhook({ path: "/gone", coin: "ETH", accountId: 2 });
  const down = await harness.createWebhook({ path: "/down", coin: "TRX", accountId: 3 });
  const refused = await harness.createWebhook({ path: "/refused", coin: "BTC", accountId: 4 });
  // As a rebinding resolver would: the address connected to is one WEBHOOK_ALLOW_CIDRS does not list.
  await harness.query(`update delivery.webhooks set webhook_url = $1 where id = $2`, [
    `http://127.0.0.2:${new URL(receiver.url).port}/refused`,
    refused.id,
  ]);

  for (let i = 0; i < 3; i++) await bus.publish(transferMatched, transferFor(ok.id, "BTC"));
  for (let i = 0; i < AUTO_DISABLE_FAILURES; i++) await bus.publish(transferMatched, transferFor(gone.id, "ETH"));
  await bus.publish(transferMatched, transferFor(down.id, "TRX"));
  await bus.publish(transferMatched, transferFor(refused.id, "BTC"));
  await bus.publish(transferMatched, transferFor(99_999_999, "ETH")); // no such webhook: consumed, ignored

  await expect.poll(poll(delivery.url, 'delivery_attempts_total{chain="btc",outcome="delivered"}'), { timeout: 10_000 }).toBe(3);
  await expect.poll(poll(delivery.url, 'delivery_webhooks_disabled_total{chain="eth"}'), { timeout: 15_000 }).toBe(1);
  await expect.poll(poll(delivery.url, 'delivery_jobs_failed_total{chain="trx"}'), { timeout: 15_000 }).toBe(1);
  await expect
    .poll(poll(delivery.url, 'delivery_attempts_total{chain="btc",outcome="refused"}'), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);

  const text = await scrape(delivery.url);
  expect(sample(text, 'delivery_attempt_duration_seconds_count{chain="btc",outcome="delivered"}')).toBe(3);
  expect(sample(text, 'delivery_attempts_total{chain="eth",outcome="gone"}')).toBe(AUTO_DISABLE_FAILURES);
  expect(sample(text, 'delivery_jobs_failed_total{chain="eth"}')).toBe(AUTO_DISABLE_FAILURES);
  // The failing TRX job: every attempt but the last is a retry, the last fails it.
  expect(sample(text, 'delivery_attempts_total{chain="trx",outcome="retry"}')).toBe(MAX_ATTEMPTS - 1);
  expect(sample(text, 'delivery_attempts_total{chain="trx",outcome="failed"}')).toBe(1);
  expect(sample(text, 'delivery_events_consumed_total{chain="btc",result="stored"}')).toBe(4);
  expect(sample(text, 'delivery_events_consumed_total{chain="eth",result="stored"}')).toBe(AUTO_DISABLE_FAILURES);
  expect(sample(text, 'delivery_events_consumed_total{chain="eth",result="ignored"}')).toBe(1);
  expect(sample(text, 'delivery_events_consumed_total{chain="trx",result="stored"}')).toBe(1);
  expect(sample(text, 'delivery_queue_jobs{chain="trx",state="due"}')).toBe(0);
  expect(sample(text, 'delivery_queue_jobs{chain="trx",state="scheduled"}')).toBe(0);

  // Due jobs: a subscriber that never answers holds its 8 slots; what it was sent beyond them waits, due.
  const hang = await harness.createWebhook({ path: "/hang", coin: "ETH" });
  for (let i = 0; i < 11; i++) await bus.publish(transferMatched, transferFor(hang.id, "ETH"));
  await expect.poll(() => receiver.received.filter((r) => r.path === "/hang").length, { timeout: 5_000 }).toBe(8);
  await expect.poll(poll(delivery.url, 'delivery_queue_jobs{chain="eth",state="due"}'), { timeout: 5_000 }).toBe(3);
  expect(sample(await scrape(delivery.url), 'delivery_queue_jobs{chain="eth",state="scheduled"}')).toBe(8);
});
