/**
 * Operational events (issue #30) on a real Postgres and bus: a transfer whose attempts run out is
 * reported to the account's other webhooks as `delivery.exhausted`, a webhook disabled after 20
 * failed deliveries as `webhook.disabled` (also kept, held, in its own history and pushed when it
 * is enabled again); each numbered in its receiver's history. A 410 (the receiver's "stop retrying
 * this event") and a failing operational event report nothing.
 */
import { notificationSchema, transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { AUTO_DISABLE_FAILURES } from "./domain/attempt-outcome.ts";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest;
// The whole retry schedule (about 28 hours) in well under a second.
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_RETRY_SCALE: "0.000005" } });

interface OperationalBody {
  event_id: string;
  type: string;
  webhook_id: number;
  sequence: number;
  subject: Record<string, unknown>;
}

const bodiesAt = (harness: DeliveryHarness, path: string) =>
  harness.receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as OperationalBody);
const operationalAt = (harness: DeliveryHarness, path: string, type: string) =>
  bodiesAt(harness, path).filter((body) => body.type === type);

it("reports a transfer whose attempts ran out to the account's other webhooks, numbered in theirs", async ({ harness }) => {
  harness.receiver.on("/exhausted-dead", (_, res) => void res.writeHead(500).end());
  const dead = await harness.createWebhook({ path: "/exhausted-dead", accountId: 11 });
  const watcher = await harness.createWebhook({ path: "/exhausted-watcher", accountId: 11 });
  await harness.createWebhook({ path: "/exhausted-stranger", accountId: 12 });
  const [earlier] = [transferFor(watcher.id)];
  await harness.bus.publish(transferMatched, earlier!);
  const lost = transferFor(dead.id);
  await harness.bus.publish(transferMatched, lost);

  await expect.poll(() => operationalAt(harness, "/exhausted-watcher", "delivery.exhausted").length, { timeout: 15_000 }).toBe(1);
  const [report] = operationalAt(harness, "/exhausted-watcher", "delivery.exhausted");
  expect(report).toMatchObject({
    webhook_id: watcher.id,
    sequence: 2,
    subject: {
      webhook_id: dead.id,
      coin: "BTC",
      event_id: lost.event_id,
      sequence: 1,
      attempts: 9,
      last_status: 500,
      last_error: "HTTP 500",
    },
  });
  const push = harness.receiver.received.find((r) => r.path === "/exhausted-watcher" && r.body.includes("delivery.exhausted"))!;
  expect(push.headers["x-service-sequence"]).toBe("2");
  expect(push.headers["webhook-id"]).toBe(report!.event_id);
  // Not to the failing webhook itself, nor to another account.
  expect(operationalAt(harness, "/exhausted-dead", "delivery.exhausted")).toEqual([]);
  expect(harness.receiver.received.filter((r) => r.path === "/exhausted-stranger")).toEqual([]);
});

it("reports nothing for a 410 (the receiver stops that event's retries) or for an operational event that runs out", async ({ harness }) => {
  harness.receiver.on("/gone", (_, res) => void res.writeHead(410).end());
  harness.receiver.on("/dead-a", (_, res) => void res.writeHead(503).end());
  harness.receiver.on("/dead-b", (_, res) => void res.writeHead(503).end());
  const gone = await harness.createWebhook({ path: "/gone", accountId: 13 });
  const deadA = await harness.createWebhook({ path: "/dead-a", accountId: 13 });
  await harness.createWebhook({ path: "/dead-b", accountId: 13 });
  await harness.bus.publish(transferMatched, transferFor(gone.id));
  const lost = transferFor(deadA.id);
  await harness.bus.publish(transferMatched, lost);
  // dead-a's transfer runs out: both others are told (dead-b's copy then runs out too, the 410 webhook refuses its copy).
  const reportIds = (path: string) => new Set(operationalAt(harness, path, "delivery.exhausted").map((body) => body.event_id));
  await expect.poll(() => reportIds("/gone").size, { timeout: 15_000 }).toBe(1);
  await expect.poll(() => operationalAt(harness, "/dead-b", "delivery.exhausted").length, { timeout: 15_000 }).toBe(9);
  await expect.poll(async () => (await harness.query(`select 1 from delivery.operational_events`)).length).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  // Only reports of dead-a's transfer exist: none of the 410, none of dead-b's failed report.
  expect(reportIds("/dead-b").size).toBe(1);
  expect(operationalAt(harness, "/gone", "delivery.exhausted")[0]!.subject).toMatchObject({
    webhook_id: deadA.id,
    event_id: lost.event_id,
  });
  expect(operationalAt(harness, "/dead-a", "delivery.exhausted")).toEqual([]);
  const queued = await harness.query<{ webhook_id: string; body: string }>(
    `select webhook_id, body from delivery.delivery_jobs where event_id like 'evt_op_%' and webhook_id in (select id from delivery.webhooks where account_id = 13)`,
  );
  expect(queued, JSON.stringify(queued)).toHaveLength(2);
});

it(`tells the account's other webhooks when one is disabled after ${AUTO_DISABLE_FAILURES} failures, and keeps it in the disabled one's own history`, async ({
  harness,
}) => {
  let down = true;
  harness.receiver.on("/disabled", (_, res) => void res.writeHead(down ? 500 : 200).end());
  const failing = await harness.createWebhook({ path: "/disabled", accountId: 14 });
  const watcher = await harness.createWebhook({ path: "/disabled-watcher", accountId: 14 });
  for (let i = 0; i < AUTO_DISABLE_FAILURES; i++) await harness.bus.publish(transferMatched, transferFor(failing.id));

  await expect.poll(() => operationalAt(harness, "/disabled-watcher", "webhook.disabled").length, { timeout: 20_000 }).toBe(1);
  const [notice] = operationalAt(harness, "/disabled-watcher", "webhook.disabled");
  expect(notice).toMatchObject({
    webhook_id: watcher.id,
    subject: { webhook_id: failing.id, coin: "BTC", failed_deliveries: AUTO_DISABLE_FAILURES, last_sequence: AUTO_DISABLE_FAILURES },
  });
  // The watcher's history: the 20 exhaustion reports, then the notice, numbered without a gap.
  const watcherEvents = bodiesAt(harness, "/disabled-watcher");
  expect(watcherEvents.map((body) => body.sequence).sort((a, b) => a - b)).toEqual(
    Array.from({ length: AUTO_DISABLE_FAILURES + 1 }, (_, i) => i + 1),
  );

  // The disabled webhook's own history holds the notice (not pushed while it is off) ...
  const own = await harness.api("GET", `/api/v1/webhooks/${failing.id}/events?after=${AUTO_DISABLE_FAILURES}`, 14);
  expect((own.body.data as unknown as Array<{ status: string; body: string }>).map((e) => [e.status, JSON.parse(e.body).type])).toEqual([
    ["held", "webhook.disabled"],
  ]);
  expect(operationalAt(harness, "/disabled", "webhook.disabled")).toEqual([]);
  // ... and pushes it once the endpoint is fixed and the webhook enabled.
  down = false;
  expect((await harness.api("PUT", `/api/v1/webhooks/${failing.id}`, 14, { is_active: true })).status).toBe(200);
  await expect.poll(() => operationalAt(harness, "/disabled", "webhook.disabled").length, { timeout: 10_000 }).toBe(1);
  expect(operationalAt(harness, "/disabled", "webhook.disabled")[0]!.sequence).toBe(AUTO_DISABLE_FAILURES + 1);
});

it("pushes bodies that parse with the published contract (the OpenAPI document's webhooks), every type seen", ({ harness }) => {
  const types = new Set<string>();
  for (const request of harness.receiver.received) {
    const parsed = notificationSchema.safeParse(JSON.parse(request.body));
    expect(parsed.error, request.body).toBeUndefined();
    types.add(parsed.data!.type);
  }
  expect([...types].sort()).toEqual(["delivery.exhausted", "transfer", "webhook.disabled"]);
});
