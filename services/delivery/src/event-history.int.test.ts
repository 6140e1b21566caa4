/**
 * The event history by cursor (issue #30) on a real Postgres and bus: every event a webhook is sent
 * is numbered, pushed with its number, and readable again oldest first from any point, verifiable
 * exactly as a push is; the retention deletes the oldest first and a cursor behind it is a 410.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { verifyStandardWebhook } from "./examples/verify-standard-webhooks.ts";
import { verifyChaingateSignature } from "./examples/verify-spec-signature.ts";
import { pruneDeliveries } from "./infra/prune-deliveries.ts";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

interface EventPage {
  data: Array<{ sequence: number; event_id: string; status: string; body: string; headers: Record<string, string> }>;
  meta: { after: number; next_after: number; newest_sequence: number; oldest_sequence: number; has_more: boolean };
}

const readEvents = async (harness: DeliveryHarness, webhookId: number, query: string, accountId = 1) => {
  const answer = await harness.api("GET", `/api/v1/webhooks/${webhookId}/events${query}`, accountId);
  return answer as unknown as {
    status: number;
    body: EventPage & { message?: string; oldest_sequence?: number; errors?: Record<string, string[]> };
  };
};

/** Publishes `count` transfers to the webhook and waits until the receiver has every one. */
async function sendTransfers(harness: DeliveryHarness, webhookId: number, path: string, count: number): Promise<string[]> {
  const events = Array.from({ length: count }, () => transferFor(webhookId));
  for (const event of events) await harness.bus.publish(transferMatched, event);
  const received = () => new Set(harness.receiver.received.filter((r) => r.path === path).map((r) => r.headers["webhook-id"]));
  await expect.poll(() => events.every((event) => received().has(event.event_id)), { timeout: 15_000 }).toBe(true);
  return events.map((event) => event.event_id);
}

it("numbers a webhook's events 1, 2, 3 in the body and the x-service-sequence header, in the order they were matched", async ({
  harness,
}) => {
  const webhook = await harness.createWebhook({ path: "/numbered" });
  const other = await harness.createWebhook({ path: "/numbered-other" });
  const eventIds = await sendTransfers(harness, webhook.id, "/numbered", 5);
  await sendTransfers(harness, other.id, "/numbered-other", 2);

  const pushes = harness.receiver.received.filter((r) => r.path === "/numbered");
  const numberOf = new Map(pushes.map((r) => [r.headers["webhook-id"] as string, Number(r.headers["x-service-sequence"])]));
  expect(eventIds.map((id) => numberOf.get(id))).toEqual([1, 2, 3, 4, 5]);
  for (const push of pushes)
    expect((JSON.parse(push.body) as { sequence: number }).sequence).toBe(Number(push.headers["x-service-sequence"]));
  // Each webhook counts its own events.
  const otherNumbers = harness.receiver.received.filter((r) => r.path === "/numbered-other").map((r) => r.headers["x-service-sequence"]);
  expect(otherNumbers.sort()).toEqual(["1", "2"]);

  // A test event is not part of the history: no number, and the next real event is 6.
  expect((await harness.api("POST", `/api/v1/webhooks/${webhook.id}/test`)).status).toBe(202);
  await expect.poll(() => harness.receiver.received.some((r) => r.path === "/numbered" && r.body.includes('"type":"test"'))).toBe(true);
  const testPush = harness.receiver.received.find((r) => r.path === "/numbered" && r.body.includes('"type":"test"'))!;
  expect(testPush.headers["x-service-sequence"]).toBeUndefined();
  const [sixth] = await sendTransfers(harness, webhook.id, "/numbered", 1);
  const sixthPush = harness.receiver.received.find((r) => r.headers["webhook-id"] === sixth)!;
  expect(sixthPush.headers["x-service-sequence"]).toBe("6");

  // The delivery log names each delivery's number too (null for the test event).
  const log = await harness.api("GET", `/api/v1/webhooks/${webhook.id}/deliveries?per_page=10`);
  expect((log.body.data as unknown as Array<{ sequence: number | null }>).map((d) => d.sequence)).toEqual([6, null, 5, 4, 3, 2, 1]);
});

it("reads the history by cursor, oldest first, with bodies byte for byte as pushed and headers that verify as a push does", async ({
  harness,
}) => {
  const webhook = await harness.createWebhook({ path: "/cursor" });
  const eventIds = await sendTransfers(harness, webhook.id, "/cursor", 7);
  const pushedBody = new Map(harness.receiver.received.filter((r) => r.path === "/cursor").map((r) => [r.headers["webhook-id"], r.body]));

  const read: EventPage["data"] = [];
  let after = 0;
  const metas: EventPage["meta"][] = [];
  for (;;) {
    const page = await readEvents(harness, webhook.id, `?after=${after}&limit=3`);
    expect(page.status).toBe(200);
    metas.push(page.body.meta);
    read.push(...page.body.data);
    after = page.body.meta.next_after;
    if (!page.body.meta.has_more) break;
  }
  expect(metas.map((m) => [m.after, m.next_after, m.has_more])).toEqual([
    [0, 3, true],
    [3, 6, true],
    [6, 7, false],
  ]);
  expect(metas.every((m) => m.newest_sequence === 7 && m.oldest_sequence === 1)).toBe(true);
  expect(read.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(read.map((event) => event.event_id)).toEqual(eventIds);
  for (const event of read) {
    expect(event.body).toBe(pushedBody.get(event.event_id));
    expect(event.status).toBe("delivered");
    // The integrator's own verification code, unchanged: the Standard Webhooks library and the spec's scheme.
    expect(verifyStandardWebhook(webhook.secret, event.headers, event.body)).toMatchObject({
      event_id: event.event_id,
      sequence: event.sequence,
    });
    expect(verifyChaingateSignature(webhook.secret, event.headers, event.body)).toBe(true);
    expect(event.headers["x-service-sequence"]).toBe(String(event.sequence));
  }

  // At the newest number: an empty page that says so; past it, or malformed, a 422 naming the field.
  const atEnd = await readEvents(harness, webhook.id, "?after=7");
  expect(atEnd.status).toBe(200);
  expect(atEnd.body).toMatchObject({ data: [], meta: { after: 7, next_after: 7, newest_sequence: 7, has_more: false } });
  const ahead = await readEvents(harness, webhook.id, "?after=8");
  expect(ahead.status).toBe(422);
  expect(ahead.body.errors).toEqual({ after: ["The after field must not be greater than the newest sequence, 7."] });
  for (const [query, field] of [
    ["?after=-1", "after"],
    ["?after=x", "after"],
    ["?limit=0", "limit"],
    ["?limit=501", "limit"],
  ] as const) {
    const bad = await readEvents(harness, webhook.id, query);
    expect(bad.status, query).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}), query).toEqual([field]);
  }
  // Another account's webhook is not found, exactly like a missing one.
  const foreign = await readEvents(harness, webhook.id, "", 2);
  expect(foreign.status).toBe(404);
  expect(foreign.body.message).toBe(`No webhook with id ${webhook.id} was found.`);
});

it("prunes the oldest events first, never past one still pending, and answers 410 with the oldest kept for a cursor behind it", async ({
  harness,
  deliveryDb,
}) => {
  const webhook = await harness.createWebhook({ path: "/pruned" });
  await sendTransfers(harness, webhook.id, "/pruned", 6);
  const age = (through: number) =>
    harness.query(`update delivery.delivery_jobs set created_at = now() - interval '40 days' where webhook_id = $1 and sequence <= $2`, [
      webhook.id,
      through,
    ]);
  const setStatus = (sequence: number, status: string) =>
    harness.query(`update delivery.delivery_jobs set status = $3 where webhook_id = $1 and sequence = $2`, [webhook.id, sequence, status]);
  const kept = async () =>
    (
      await harness.query<{ sequence: string }>(`select sequence from delivery.delivery_jobs where webhook_id = $1 order by sequence`, [
        webhook.id,
      ])
    ).map((row) => Number(row.sequence));

  // Events 1..4 are past the retention, but 3 is still being delivered: 1 and 2 go, 3 and every later one stay.
  await age(4);
  await setStatus(3, "pending");
  await harness.query(
    `update delivery.delivery_jobs set next_attempt_at = now() + interval '1 hour' where webhook_id = $1 and sequence = 3`,
    [webhook.id],
  );
  await pruneDeliveries(deliveryDb.db, 30);
  expect(await kept()).toEqual([3, 4, 5, 6]);
  const behind = await readEvents(harness, webhook.id, "?after=1");
  expect(behind.status).toBe(410);
  expect(behind.body).toEqual({
    message: "Events after sequence 1 were deleted after the retention period; the oldest kept is 3.",
    oldest_sequence: 3,
  });
  const fromOldest = await readEvents(harness, webhook.id, "?after=2");
  expect(fromOldest.status).toBe(200);
  expect(fromOldest.body.data.map((event) => event.sequence)).toEqual([3, 4, 5, 6]);
  expect(fromOldest.body.meta.oldest_sequence).toBe(3);

  // Once it is delivered, the next prune takes 3 and 4 (5 and 6 are young).
  await setStatus(3, "delivered");
  await pruneDeliveries(deliveryDb.db, 30);
  expect(await kept()).toEqual([5, 6]);
  expect((await readEvents(harness, webhook.id, "?after=2")).body).toMatchObject({ oldest_sequence: 5 });
  expect((await readEvents(harness, webhook.id, "?after=4")).body.data.map((event) => event.sequence)).toEqual([5, 6]);
});
