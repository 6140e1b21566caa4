/**
 * The README's verification snippets (these files, quoted verbatim there) verify a real delivery
 * and refuse a tampered one.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus } from "@chaingate/bus";
import { transferMatched } from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { createTestDatabase, type TestDatabase } from "@chaingate/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DeliveryService } from "../create-delivery-service.ts";
import { startLocalReceiver, startTestDelivery, type LocalReceiver } from "../testing/index.ts";
import { verifyChaingateSignature } from "./verify-spec-signature.ts";
import { verifyStandardWebhook } from "./verify-standard-webhooks.ts";

const NAMESPACE = `v${randomBytes(4).toString("hex")}`;
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
let database: TestDatabase;
let delivery: DeliveryService;
let receiver: LocalReceiver;
let bus: Bus;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startLocalReceiver();
  delivery = await startTestDelivery(database.connectionString, { NATS_URL, NATS_NAMESPACE: NAMESPACE, WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" });
  bus = await connectBus({ url: NATS_URL, name: "test", logger: { info: () => {}, warn: () => {}, error: () => {} }, namespace: NAMESPACE });
  await bus.ensureStreams([transferMatched]);
});
afterAll(async () => {
  await bus?.close();
  await delivery?.close();
  await receiver?.close();
  await database?.drop();
});

it("both README snippets accept a real delivery and refuse a tampered body or a wrong secret", async () => {
  const response = await fetch(`${delivery.url}/api/v1/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", [ACCOUNT_ID_HEADER]: "1" },
    body: JSON.stringify({ coin: "TRX", webhook_url: `${receiver.url}/hook`, addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"] }),
  });
  const { data } = (await response.json()) as { data: { id: number; secret: string } };
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
