/**
 * The README's verification snippets (these files, quoted verbatim there) verify a real delivery
 * and refuse a tampered one.
 */
import { transferMatched } from "@chaingate/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startDeliveryHarness, type DeliveryHarness } from "../testing/index.ts";
import { verifyChaingateSignature } from "./verify-spec-signature.ts";
import { verifyStandardWebhook } from "./verify-standard-webhooks.ts";

let harness: DeliveryHarness;

beforeAll(async () => {
  harness = await startDeliveryHarness();
});
afterAll(async () => {
  await harness?.close();
});

it("both README snippets accept a real delivery and refuse a tampered body or a wrong secret", async () => {
  const { bus, receiver } = harness;
  const data = await harness.createWebhook({ path: "/hook", coin: "TRX" });
  await bus.publish(transferMatched, {
    event_id: "evt_snippet", type: "transfer", webhook_id: data.id, coin: "TRX", currency: "USDT", from: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
    to: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", watched_address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", amount: "12.5", raw_amount: "12500000", decimals: 6,
    token_contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", txid: "ab".repeat(32), position: 0, block: { height: 1, hash: "cd".repeat(32), time: "2026-11-22T10:00:00.000Z" },
    execution_status: "SUCCESS", confirmations: 1,
  });
  await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
  const { headers, body } = receiver.received[0]!;
  expect(verifyChaingateSignature(data.secret, headers, body)).toBe(true);
  expect(verifyStandardWebhook(data.secret, headers as Record<string, string>, body)).toMatchObject({ event_id: "evt_snippet", amount: "12.5" });
  const tampered = body.replace("12.5", "99.5");
  expect(verifyChaingateSignature(data.secret, headers, tampered)).toBe(false);
  expect(verifyChaingateSignature(`${data.secret}0`, headers, body)).toBe(false);
  expect(() => verifyStandardWebhook(data.secret, headers as Record<string, string>, tampered)).toThrow();
});
