/**
 * The operator CLI's `quotas --account` over the whole path: a client's webhooks, test event and
 * xpub record made through the real gateway, then the CLI reads the account's usage from the
 * delivery and xpub services' internal quota routes (with the internal token) and shows it against
 * each quota. The quotas themselves: services/delivery/src/http/registry-quotas.int.test.ts and
 * services/xpub/src/http/xpub-quota.int.test.ts.
 */
import { randomBytes } from "node:crypto";
import { startTestDelivery } from "@chaingate/delivery/testing";
import { createAccountWithKey, runAdminCli, startTestGateway } from "@chaingate/gateway/testing";
import { createTestDatabase, type TestDatabase } from "@chaingate/testing";
import { startTestXpub, BIP84_VECTORS } from "@chaingate/xpub/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const URL_OK = "http://93.184.216.34/hook";
const WEBHOOKS = 3;
const ADDRESSES = 10;
const TEST_EVENTS = 2;
const INTERNAL_TOKEN = randomBytes(16).toString("hex");

let database: TestDatabase;
let delivery: Awaited<ReturnType<typeof startTestDelivery>>;
let xpub: Awaited<ReturnType<typeof startTestXpub>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  database = await createTestDatabase();
  const common = { NATS_URL, NATS_NAMESPACE: `q${randomBytes(4).toString("hex")}`, INTERNAL_TOKEN };
  delivery = await startTestDelivery(database.connectionString, {
    ...common,
    QUOTA_WEBHOOKS_PER_ACCOUNT: String(WEBHOOKS),
    QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT: String(ADDRESSES),
    QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE: String(TEST_EVENTS),
  });
  xpub = await startTestXpub(database.connectionString, common);
  gateway = await startTestGateway({ DELIVERY_URL: delivery.url, XPUB_URL: xpub.url, INTERNAL_TOKEN }, database.connectionString);
});
afterAll(async () => {
  await gateway?.close();
  await xpub?.close();
  await delivery?.close();
  await database?.drop();
});

/** A JSON call through the gateway with the account's key: its status and body. */
async function call(
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: { data?: { id: number }; id?: number } }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { "x-api-key": key, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}
const ethAddresses = (count: number) => Array.from({ length: count }, () => `0x${randomBytes(20).toString("hex")}`);
const createWebhook = (key: string, addresses: string[]) =>
  call("POST", "/api/v1/webhooks", key, { coin: "ETH", webhook_url: URL_OK, addresses });
const quotaTable = async (accountId: number) =>
  (
    await runAdminCli(database.connectionString, ["quotas", "--account", String(accountId)], {
      DELIVERY_URL: delivery.url,
      XPUB_URL: xpub.url,
      INTERNAL_TOKEN,
    })
  )
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));

it("shows the account's usage against every quota, from the delivery and xpub services", async () => {
  const { accountId, key } = await createAccountWithKey(database.connectionString, "cli");
  const id = (await createWebhook(key, ethAddresses(4))).body.data!.id;
  await createWebhook(key, ethAddresses(2));
  expect((await call("POST", `/api/v1/webhooks/${id}/test`, key)).status).toBe(202);
  const record = await call("POST", "/api/v1/btc/xpub", key, { xpub: BIP84_VECTORS.accounts[0]!.zpub });
  expect(record.status).toBe(201);
  expect((await call("POST", `/api/v1/btc/xpub/${record.body.id}/address`, key)).status).toBe(201);

  expect(await quotaTable(accountId)).toEqual([
    ["service", "quota", "used", "limit"],
    ["gateway", "QUOTA_API_KEYS_PER_ACCOUNT", "1", "100"],
    ["delivery", "QUOTA_WEBHOOKS_PER_ACCOUNT", "2", String(WEBHOOKS)],
    ["delivery", "QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", "6", String(ADDRESSES)],
    ["delivery", "QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE", "1", String(TEST_EVENTS)],
    ["xpub", "QUOTA_XPUB_RECORDS_PER_ACCOUNT", "1", "1000"],
    ["xpub", "XPUB_MAX_ADDRESSES_PER_KEY (busiest key)", "1", "100000"],
  ]);
}, 60_000);
