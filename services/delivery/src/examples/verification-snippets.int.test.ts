/**
 * The verification snippets of docs/api.md (these files, quoted verbatim there) verify a real delivery
 * and refuse a tampered one: the spec's scheme, and Standard Webhooks with stock libraries
 * (`standardwebhooks`, `svix`) given the secret as issued and no options, and the raw-key form
 * integrators already use.
 */
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { verifyChaingateSignature } from "./verify-spec-signature.ts";
import { verifyStandardWebhook } from "./verify-standard-webhooks.ts";
import { verifyStandardWebhookRawKey } from "./verify-standard-webhooks-raw.ts";
import { verifySvixWebhook } from "./verify-svix.ts";

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

it("the published snippets accept a real delivery and refuse a tampered body or a wrong secret", async ({ harness }) => {
  const { bus, receiver } = harness;
  const data = await harness.createWebhook({ path: "/hook", coin: "TRX" });
  await bus.publish(transferMatched, {
    event_id: "evt_snippet",
    type: "transfer",
    webhook_id: data.id,
    coin: "TRX",
    currency: "USDT",
    from: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
    to: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    watched_address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    amount: "12.5",
    raw_amount: "12500000",
    decimals: 6,
    token_contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    txid: "ab".repeat(32),
    position: 0,
    block: { height: 1, hash: "cd".repeat(32), time: "2026-11-22T10:00:00.000Z" },
    execution_status: "SUCCESS",
    confirmations: 1,
  });
  await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
  const { headers, body } = receiver.received[0]!;
  expect(verifyChaingateSignature(data.secret, headers, body)).toBe(true);
  const standardHeaders = headers as Record<string, string>;
  expect(verifyStandardWebhook(data.secret, standardHeaders, body)).toMatchObject({ event_id: "evt_snippet", amount: "12.5" });
  expect(() => verifySvixWebhook(data.secret, standardHeaders, body)).not.toThrow();
  expect(verifyStandardWebhookRawKey(data.secret, standardHeaders, body)).toMatchObject({ event_id: "evt_snippet", amount: "12.5" });
  // Two signatures, one per key reading: the secret's bytes, and the base64 after `whsec_`.
  expect(standardHeaders["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  const tampered = body.replace("12.5", "99.5");
  const otherSecret = `whsec_${"0".repeat(64)}`;
  expect(verifyChaingateSignature(data.secret, headers, tampered)).toBe(false);
  expect(verifyChaingateSignature(`${data.secret}0`, headers, body)).toBe(false);
  for (const verify of [verifyStandardWebhook, verifySvixWebhook, verifyStandardWebhookRawKey]) {
    expect(() => verify(data.secret, standardHeaders, tampered)).toThrow();
    expect(() => verify(otherSecret, standardHeaders, body)).toThrow();
  }
});
