/**
 * Nothing is lost while a webhook is off (issue #30): an inactive webhook stays watched, its events
 * are stored under their sequence and held (not pushed), readable by cursor, and when it is enabled
 * again the client chooses to have them pushed (the default) or skipped.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_RETRY_SCALE: "0.001" } });

const pushesTo = (harness: DeliveryHarness, path: string) => harness.receiver.received.filter((r) => r.path === path);
const statusesOf = async (harness: DeliveryHarness, webhookId: number) =>
  (
    await harness.query<{ sequence: string; status: string }>(
      `select sequence, status from delivery.delivery_jobs where webhook_id = $1 and sequence is not null order by sequence`,
      [webhookId],
    )
  ).map((row) => `${row.sequence}:${row.status}`);
const put = (harness: DeliveryHarness, webhookId: number, body: unknown) => harness.api("PUT", `/api/v1/webhooks/${webhookId}`, 1, body);

async function publish(harness: DeliveryHarness, webhookId: number, count: number): Promise<string[]> {
  const events = Array.from({ length: count }, () => transferFor(webhookId));
  for (const event of events) await harness.bus.publish(transferMatched, event);
  return events.map((event) => event.event_id);
}

it("holds an inactive webhook's events under their numbers, keeps it watched, and pushes them oldest first when it is enabled", async ({
  harness,
  watchFeed,
}) => {
  const webhook = await harness.createWebhook({ path: "/held" });
  const [first] = await publish(harness, webhook.id, 1);
  await expect.poll(() => pushesTo(harness, "/held").length).toBe(1);
  expect((await put(harness, webhook.id, { is_active: false })).status).toBe(200);
  // The scanner is told to keep matching it.
  await expect.poll(() => watchFeed.stateOf(webhook.id).meta).toMatchObject({ is_active: false, watch: true });

  const whileOff = await publish(harness, webhook.id, 3);
  await expect.poll(() => statusesOf(harness, webhook.id)).toEqual(["1:delivered", "2:held", "3:held", "4:held"]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(pushesTo(harness, "/held").map((r) => r.headers["webhook-id"])).toEqual([first]);
  // Readable by cursor while held.
  const page = await harness.api("GET", `/api/v1/webhooks/${webhook.id}/events?after=1`);
  expect((page.body.data as unknown as Array<{ event_id: string; status: string }>).map((e) => [e.event_id, e.status])).toEqual(
    whileOff.map((id) => [id, "held"]),
  );

  // Enabled without saying: pushed, each with its number.
  expect((await put(harness, webhook.id, { is_active: true })).status).toBe(200);
  await expect.poll(() => pushesTo(harness, "/held").length, { timeout: 10_000 }).toBe(4);
  const pushed = pushesTo(harness, "/held").slice(1);
  expect(pushed.map((r) => r.headers["webhook-id"]).sort()).toEqual([...whileOff].sort());
  expect(pushed.map((r) => Number(r.headers["x-service-sequence"])).sort()).toEqual([2, 3, 4]);
  await expect.poll(() => statusesOf(harness, webhook.id)).toEqual(["1:delivered", "2:delivered", "3:delivered", "4:delivered"]);
});

it("skips the held events when the client enables the webhook with held_events skip; they stay readable", async ({ harness }) => {
  const webhook = await harness.createWebhook({ path: "/skipped", isActive: false });
  const held = await publish(harness, webhook.id, 2);
  await expect.poll(() => statusesOf(harness, webhook.id)).toEqual(["1:held", "2:held"]);
  expect((await put(harness, webhook.id, { is_active: true, held_events: "skip" })).status).toBe(200);
  expect(await statusesOf(harness, webhook.id)).toEqual(["1:skipped", "2:skipped"]);
  const [next] = await publish(harness, webhook.id, 1);
  await expect.poll(() => pushesTo(harness, "/skipped").map((r) => r.headers["webhook-id"])).toEqual([next]);
  expect(pushesTo(harness, "/skipped")[0]!.headers["x-service-sequence"]).toBe("3");
  const page = await harness.api("GET", `/api/v1/webhooks/${webhook.id}/events`);
  expect((page.body.data as unknown as Array<{ event_id: string }>).map((e) => e.event_id)).toEqual([...held, next]);
});

it("holds a job that was waiting for a retry when the webhook was turned off, and sends it once it is on again", async ({ harness }) => {
  let down = true;
  harness.receiver.on("/flaky", (_, res) => void res.writeHead(down ? 503 : 200).end());
  const webhook = await harness.createWebhook({ path: "/flaky" });
  await publish(harness, webhook.id, 1);
  await expect.poll(() => pushesTo(harness, "/flaky").length).toBeGreaterThanOrEqual(1);
  expect((await put(harness, webhook.id, { is_active: false })).status).toBe(200);
  // Its next attempt comes (the schedule is compressed) and finds the webhook inactive: held, not sent.
  await expect.poll(() => statusesOf(harness, webhook.id), { timeout: 10_000 }).toEqual(["1:held"]);
  const attemptsWhileOff = pushesTo(harness, "/flaky").length;
  down = false;
  expect((await put(harness, webhook.id, { is_active: true, held_events: "push" })).status).toBe(200);
  await expect.poll(() => statusesOf(harness, webhook.id), { timeout: 10_000 }).toEqual(["1:delivered"]);
  expect(pushesTo(harness, "/flaky").length).toBe(attemptsWhileOff + 1);
});

it("refuses held_events without is_active true, naming the field", async ({ harness }) => {
  const webhook = await harness.createWebhook({ path: "/refused" });
  for (const body of [{ held_events: "push" }, { is_active: false, held_events: "skip" }]) {
    const refused = await put(harness, webhook.id, body);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ errors: { held_events: ["The held events field is only allowed when is active is true."] } });
  }
  const wrong = await put(harness, webhook.id, { is_active: true, held_events: "later" });
  expect(wrong.status).toBe(422);
  expect(wrong.body).toMatchObject({ errors: { held_events: ["The held events field must be push or skip."] } });
});
