/**
 * The delivery log, retry and test endpoints across accounts, and secret rotation, against a real
 * delivery over Postgres and NATS with a local receiver: another account's webhook id gets the
 * same 404 as a missing one (and nothing is sent or re-queued), and after `POST .../secret` the
 * next delivery, and a retry of a job queued before the rotation, is signed with the new secret.
 */
import { transferMatched } from "@chaingate/contracts";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect } from "vitest";
import { transferFor, type DeliveryHarness } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const ALICE = 11;
const BOB = 12;
const MISSING = 99_999_999;
const it = deliveryTest;
// No overlap: the replaced secret stops signing at once (secret-overlap.int.test.ts has the overlap).
deliveryTest.scoped({
  deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_RETRY_SCALE: "0.001", WEBHOOK_SECRET_OVERLAP_SECONDS: "0" },
});

const at = (harness: DeliveryHarness, path: string) => harness.receiver.received.filter((r) => r.path === path);
const signedWith = (secret: string, request: { body: string; headers: Record<string, unknown> }) => {
  try {
    new StandardWebhook(secret, { format: "raw" }).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe("another account's webhook", () => {
  it("is a 404 with the same body as a missing one on the log, retry and test endpoints; nothing is sent or re-queued", async ({
    harness,
  }) => {
    harness.receiver.on("/alice", (_, res) => void res.writeHead(410).end());
    const alice = await harness.createWebhook({ path: "/alice", accountId: ALICE });
    const bobs = await harness.createWebhook({ path: "/bob", accountId: BOB });
    await harness.bus.publish(transferMatched, transferFor(alice.id));
    await expect
      .poll(async () => (await harness.api("GET", `/api/v1/webhooks/${alice.id}/deliveries?status=failed`, ALICE)).body.data, {
        timeout: 10_000,
      })
      .toHaveLength(1);
    const failed = (
      (await harness.api("GET", `/api/v1/webhooks/${alice.id}/deliveries`, ALICE)).body.data as unknown as Array<{ id: number }>
    )[0]!;
    const sentBefore = at(harness, "/alice").length;

    for (const [method, suffix] of [
      ["GET", "/deliveries"],
      ["GET", "/deliveries?status=failed"],
      ["POST", `/deliveries/${failed.id}/retry`],
      ["POST", "/test"],
    ] as const) {
      const theirs = await harness.api(method, `/api/v1/webhooks/${alice.id}${suffix}`, BOB);
      const none = await harness.api(method, `/api/v1/webhooks/${MISSING}${suffix}`, BOB);
      expect({ suffix, status: theirs.status, body: theirs.body }).toEqual({
        suffix,
        status: 404,
        body: { message: `No webhook with id ${alice.id} was found.` },
      });
      expect({ suffix, status: none.status, body: none.body }).toEqual({
        suffix,
        status: 404,
        body: { message: `No webhook with id ${MISSING} was found.` },
      });
    }
    // Bob's own webhook with Alice's delivery id: not one of his deliveries.
    const crossed = await harness.api("POST", `/api/v1/webhooks/${bobs.id}/deliveries/${failed.id}/retry`, BOB);
    expect(crossed).toEqual({ status: 404, body: { message: `No delivery with id ${failed.id} was found.` } });

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at(harness, "/alice").length).toBe(sentBefore);
    expect(at(harness, "/bob")).toEqual([]);
    const [job] = await harness.query<{ status: string; attempts: number }>(
      `select status, attempts from delivery.delivery_jobs where id = $1`,
      [failed.id],
    );
    expect(job).toEqual({ status: "failed", attempts: 1 });
    expect((await harness.query(`select 1 from delivery.delivery_jobs where webhook_id = $1`, [alice.id])).length).toBe(1); // no test event queued
    // The owner still sees and controls it.
    expect((await harness.api("POST", `/api/v1/webhooks/${alice.id}/deliveries/${failed.id}/retry`, ALICE)).status).toBe(202);
  });
});

describe("secret rotation", () => {
  it("the next delivery after POST /webhooks/{id}/secret, and a retry of a job queued before it, are signed with the new secret only", async ({
    harness,
  }) => {
    let healthy = true;
    // Failing, it asks for 2 s: no attempt of the early job can be under way while the secret rotates.
    harness.receiver.on("/rotating", (_, res) => void (healthy ? res.writeHead(200) : res.writeHead(500, { "retry-after": "2" })).end());
    const webhook = await harness.createWebhook({ path: "/rotating" });
    await harness.bus.publish(transferMatched, transferFor(webhook.id));
    await expect.poll(() => at(harness, "/rotating").length, { timeout: 10_000 }).toBe(1);
    expect(signedWith(webhook.secret, at(harness, "/rotating")[0]!)).toBe(true);

    // A job that fails before the rotation and is retried after it.
    healthy = false;
    const early = transferFor(webhook.id);
    await harness.bus.publish(transferMatched, early);
    await expect
      .poll(
        async () => (await harness.query(`select status, attempts from delivery.delivery_jobs where event_id = $1`, [early.event_id]))[0],
        { timeout: 10_000 },
      )
      .toEqual({ status: "pending", attempts: 1 });
    const rotated = await harness.api("POST", `/api/v1/webhooks/${webhook.id}/secret`, 1);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(secret).not.toBe(webhook.secret);
    const rotatedAt = Date.now();
    healthy = true;

    const next = transferFor(webhook.id);
    await harness.bus.publish(transferMatched, next);
    const delivered = (eventId: string) => at(harness, "/rotating").filter((r) => r.headers["webhook-id"] === eventId && r.at > rotatedAt);
    await expect.poll(() => delivered(next.event_id).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => delivered(early.event_id).length, { timeout: 10_000 }).toBe(1);
    for (const request of [...delivered(next.event_id), ...delivered(early.event_id)]) {
      expect(signedWith(secret, request)).toBe(true);
      expect(signedWith(webhook.secret, request)).toBe(false);
    }
  });
});
