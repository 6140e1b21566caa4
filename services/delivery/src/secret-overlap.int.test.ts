/**
 * Secret rotation with an overlap (issue #30), against a real delivery: for WEBHOOK_SECRET_OVERLAP_SECONDS
 * after `POST …/secret` every delivery verifies with the new secret and with the replaced one (the
 * Standard Webhooks library as integrators call it; the spec's header with the new, the
 * `X-Service-Signature-Previous` header with the old), and after it with the new one only.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { verifyChaingateSignature } from "./examples/verify-spec-signature.ts";
import { verifyStandardWebhook } from "./examples/verify-standard-webhooks.ts";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", WEBHOOK_SECRET_OVERLAP_SECONDS: "3600" } });

const verifiesWith = (secret: string, request: { body: string; headers: Record<string, unknown> }) => {
  try {
    verifyStandardWebhook(secret, request.headers as Record<string, string>, request.body);
    return true;
  } catch {
    return false;
  }
};

async function deliverOne(harness: DeliveryHarness, webhookId: number) {
  const event = transferFor(webhookId);
  await harness.bus.publish(transferMatched, event);
  await expect.poll(() => harness.receiver.received.filter((r) => r.headers["webhook-id"] === event.event_id).length).toBe(1);
  return harness.receiver.received.find((r) => r.headers["webhook-id"] === event.event_id)!;
}

it("signs with both secrets during the overlap, then with the new one alone", async ({ harness }) => {
  const webhook = await harness.createWebhook({ path: "/overlap" });
  const before = await deliverOne(harness, webhook.id);
  expect(before.headers["x-service-signature-previous"]).toBeUndefined();

  const rotated = await harness.api("POST", `/api/v1/webhooks/${webhook.id}/secret`, 1);
  const secret = rotated.body.data.secret as string;
  expect(secret).not.toBe(webhook.secret);
  const during = await deliverOne(harness, webhook.id);
  expect(verifiesWith(secret, during)).toBe(true);
  expect(verifiesWith(webhook.secret, during)).toBe(true);
  expect(verifyChaingateSignature(secret, during.headers, during.body)).toBe(true);
  const previous = { ...during.headers, "x-service-signature": during.headers["x-service-signature-previous"] };
  expect(verifyChaingateSignature(webhook.secret, previous, during.body)).toBe(true);
  expect(verifiesWith("whsec_" + "0".repeat(64), during)).toBe(false);

  // The overlap ends (as if an hour passed).
  await harness.query(`update delivery.webhooks set previous_secret_until = now() - interval '1 second' where id = $1`, [webhook.id]);
  const after = await deliverOne(harness, webhook.id);
  expect(verifiesWith(secret, after)).toBe(true);
  expect(verifiesWith(webhook.secret, after)).toBe(false);
  expect(after.headers["x-service-signature-previous"]).toBeUndefined();
});
