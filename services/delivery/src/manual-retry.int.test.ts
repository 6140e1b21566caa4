/**
 * `POST /webhooks/{id}/deliveries/{d}/retry` against a real delivery and a local receiver: a
 * delivery that is pending (queued, waiting for its next attempt, or in flight) is never sent a
 * second time alongside (409 with its status, atomic in SQL, also for parallel calls); a finished
 * one (failed, delivered, skipped) is queued again for its next attempt, keeping its attempt count,
 * so a retry is never a fresh schedule; and re-sending a test event is one more test event under
 * the webhook's per-minute quota. Every answer is checked against the OpenAPI document.
 */
import { transferMatched } from "@chaingate/contracts";
import { internalEdge } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { RETRY_CONFLICT_MESSAGE } from "./domain/manual-retry.ts";
import { MAX_ATTEMPTS } from "./domain/retry-schedule.ts";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const TEST_EVENT_QUOTA = 3;
/** How long the slow receiver holds a request open. */
const SLOW_ANSWER_MS = 3_000;

deliveryTest.scoped({
  deliverySettings: {
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
    DELIVERY_RETRY_SCALE: "0.001",
    QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE: String(TEST_EVENT_QUOTA),
  },
});

/** The harness, its service's answers checked against the OpenAPI document from the start. */
const it = deliveryTest.extend<{ checkedHarness: DeliveryHarness }>({
  checkedHarness: [
    async ({ harness }, use) => {
      internalEdge(harness.delivery);
      await use(harness);
    },
    { scope: "file" },
  ],
});

interface DeliveryAnswer {
  id: number;
  status: string;
  attempts: number;
  attempt_log: Array<{ attempt: number; status_code: number | null }>;
}

/** 202 `{data}`, 409 `{message, status}`, 429 `{message}`. */
interface RetryAnswer {
  data: DeliveryAnswer;
  message?: string;
  status?: string;
}

const at = (harness: DeliveryHarness, path: string) => harness.receiver.received.filter((r) => r.path === path);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function retry(
  harness: DeliveryHarness,
  webhookId: number,
  deliveryId: number,
  accountId = 1,
): Promise<{ status: number; body: RetryAnswer }> {
  const { status, body } = await harness.api("POST", `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, accountId);
  return { status, body: body as unknown as RetryAnswer };
}
async function deliveryOf(harness: DeliveryHarness, webhookId: number, deliveryId: number, accountId = 1): Promise<DeliveryAnswer> {
  const page = (await harness.api("GET", `/api/v1/webhooks/${webhookId}/deliveries`, accountId)).body.data as unknown as DeliveryAnswer[];
  return page.find((delivery) => delivery.id === deliveryId)!;
}
/** The webhook's only delivery in `status`, once there is one. */
async function onlyDelivery(harness: DeliveryHarness, webhookId: number, status: string, accountId = 1): Promise<DeliveryAnswer> {
  const path = `/api/v1/webhooks/${webhookId}/deliveries?status=${status}`;
  await expect.poll(async () => (await harness.api("GET", path, accountId)).body.data, { timeout: 10_000 }).toHaveLength(1);
  const answer = await harness.api("GET", path, accountId);
  return (answer.body.data as unknown as DeliveryAnswer[])[0]!;
}

describe("a delivery in flight", () => {
  it("five retries while its first attempt is open are 409s with its status; the receiver gets one POST", async ({
    checkedHarness: harness,
  }) => {
    harness.receiver.on("/slow", (_, res) => void setTimeout(() => res.end("ok"), SLOW_ANSWER_MS));
    const webhook = await harness.createWebhook({ path: "/slow" });
    const queued = await harness.api("POST", `/api/v1/webhooks/${webhook.id}/test`);
    expect(queued.status).toBe(202);
    const deliveryId = queued.body.data.id as number;
    await expect.poll(() => at(harness, "/slow").length, { timeout: 10_000 }).toBe(1);

    for (let i = 0; i < 5; i++) {
      expect(await retry(harness, webhook.id, deliveryId)).toEqual({
        status: 409,
        body: { message: RETRY_CONFLICT_MESSAGE, status: "pending" },
      });
      await sleep(300);
    }
    const delivered = await onlyDelivery(harness, webhook.id, "delivered");
    expect(delivered).toMatchObject({ id: deliveryId, attempts: 1 });
    await sleep(500);
    expect(at(harness, "/slow")).toHaveLength(1);
  });

  it("parallel retries of a failed delivery: one is queued (202), the others are 409s; one more POST", async ({
    checkedHarness: harness,
  }) => {
    let gone = true;
    harness.receiver.on("/parallel", (_, res) => {
      if (gone) return void res.writeHead(410).end();
      setTimeout(() => res.end("ok"), 1_000);
    });
    const webhook = await harness.createWebhook({ path: "/parallel" });
    await harness.bus.publish(transferMatched, transferFor(webhook.id));
    const failed = await onlyDelivery(harness, webhook.id, "failed");
    gone = false;

    const answers = await Promise.all(Array.from({ length: 8 }, () => retry(harness, webhook.id, failed.id)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
    await onlyDelivery(harness, webhook.id, "delivered");
    await sleep(500);
    expect(at(harness, "/parallel")).toHaveLength(2);
  });
});

describe("a finished delivery", () => {
  it("a failed one keeps its attempt count: past the schedule a retry is one attempt, failed again when it fails", async ({
    checkedHarness: harness,
  }) => {
    // An account of its own: the retry fails again past the schedule, which sends `delivery.exhausted`
    // to every other webhook of the account (those of the tests beside it would get it).
    const account = 3;
    const webhook = await harness.createWebhook({ path: "/down", accountId: account });
    harness.receiver.on("/down", (_, res, count) => void res.writeHead(count === 1 ? 410 : 503).end());
    await harness.bus.publish(transferMatched, transferFor(webhook.id));
    const failed = await onlyDelivery(harness, webhook.id, "failed", account);
    // As if every scheduled attempt had been made.
    await harness.query(`update delivery.delivery_jobs set attempts = $1 where id = $2`, [MAX_ATTEMPTS, failed.id]);

    const retried = await retry(harness, webhook.id, failed.id, account);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ id: failed.id, status: "pending", attempts: MAX_ATTEMPTS });
    await expect
      .poll(async () => (await deliveryOf(harness, webhook.id, failed.id, account)).attempts, { timeout: 10_000 })
      .toBe(MAX_ATTEMPTS + 1);
    await sleep(500);
    const after = await deliveryOf(harness, webhook.id, failed.id, account);
    expect(after).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS + 1 });
    expect(after.attempt_log.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
      [1, 410],
      [MAX_ATTEMPTS + 1, 503],
    ]);
    expect(at(harness, "/down")).toHaveLength(2);
  });

  it("a delivered one is sent again on request (a replay), with the same event id", async ({ checkedHarness: harness }) => {
    const webhook = await harness.createWebhook({ path: "/replayed" });
    const event = transferFor(webhook.id);
    await harness.bus.publish(transferMatched, event);
    const delivered = await onlyDelivery(harness, webhook.id, "delivered");
    const replayed = await retry(harness, webhook.id, delivered.id);
    expect(replayed.status).toBe(202);
    expect(replayed.body.data).toMatchObject({ status: "pending", attempts: 1 });
    await expect.poll(() => at(harness, "/replayed").length, { timeout: 10_000 }).toBe(2);
    expect(at(harness, "/replayed").map((request) => request.headers["webhook-id"])).toEqual([event.event_id, event.event_id]);
    await expect.poll(async () => (await deliveryOf(harness, webhook.id, delivered.id)).status, { timeout: 10_000 }).toBe("delivered");
    expect((await deliveryOf(harness, webhook.id, delivered.id)).attempts).toBe(2);
  });

  it(`re-sending a test event counts toward the webhook's test event quota (${TEST_EVENT_QUOTA} a minute): 429 past it`, async ({
    checkedHarness: harness,
  }) => {
    // An account of its own: the other tests' deliveries that run out of attempts send
    // `delivery.exhausted` to every other webhook of their account, which would reach this one too.
    const account = 2;
    const webhook = await harness.createWebhook({ path: "/tested", accountId: account });
    const ids: number[] = [];
    for (let i = 0; i < TEST_EVENT_QUOTA - 1; i++)
      ids.push((await harness.api("POST", `/api/v1/webhooks/${webhook.id}/test`, account)).body.data.id as number);
    await expect.poll(() => at(harness, "/tested").length, { timeout: 10_000 }).toBe(TEST_EVENT_QUOTA - 1);
    await expect
      .poll(async () => (await harness.api("GET", `/api/v1/webhooks/${webhook.id}/deliveries?status=delivered`, account)).body.data, {
        timeout: 10_000,
      })
      .toHaveLength(TEST_EVENT_QUOTA - 1);

    expect((await retry(harness, webhook.id, ids[0]!, account)).status).toBe(202); // the quota's last test event
    const refused = await retry(harness, webhook.id, ids[1]!, account);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE/);
    expect((await harness.api("POST", `/api/v1/webhooks/${webhook.id}/test`, account)).status).toBe(429);
    await sleep(500);
    expect(at(harness, "/tested")).toHaveLength(TEST_EVENT_QUOTA);
  });
});
