/**
 * The registry's quotas through the real gateway over a real Postgres and NATS, with small quota
 * settings: parallel writes never pass the last free slot, refusals are the spec's 422
 * `{message, errors}` naming the quota, a test event past its rate is 429 with `Retry-After`, and
 * the operator CLI shows each account's usage against its quotas (from this service and xpub).
 */
import { randomBytes } from "node:crypto";
import { addressIssued } from "@chaingate/contracts";
import { createAccountWithKey, runAdminCli, startTestGateway } from "@chaingate/gateway/testing";
import { createTestDatabase, type TestDatabase } from "@chaingate/testing";
import { startTestXpub } from "@chaingate/xpub/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryService } from "../create-delivery-service.ts";
import { observeWatchFeed, startTestDelivery, type WatchFeedObserver } from "../testing/index.ts";

const NAMESPACE = `q${randomBytes(4).toString("hex")}`;
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const URL_OK = "http://93.184.216.34/hook";
const WEBHOOKS = 3;
const ADDRESSES = 10;
const TEST_EVENTS = 2;
/** The BIP84 specification's account-0 zpub (a public test vector). */
const BIP84_ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
const INTERNAL_TOKEN = randomBytes(16).toString("hex");

let database: TestDatabase;
let delivery: DeliveryService;
let xpub: Awaited<ReturnType<typeof startTestXpub>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let observer: WatchFeedObserver;

beforeAll(async () => {
  database = await createTestDatabase();
  const common = { NATS_URL, NATS_NAMESPACE: NAMESPACE, INTERNAL_TOKEN };
  delivery = await startTestDelivery(database.connectionString, {
    ...common,
    QUOTA_WEBHOOKS_PER_ACCOUNT: String(WEBHOOKS),
    QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT: String(ADDRESSES),
    QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE: String(TEST_EVENTS),
  });
  xpub = await startTestXpub(database.connectionString, common);
  gateway = await startTestGateway({ DELIVERY_URL: delivery.url, XPUB_URL: xpub.url, INTERNAL_TOKEN }, database.connectionString);
  observer = await observeWatchFeed(NATS_URL, NAMESPACE);
  await observer.bus.ensureStreams([addressIssued]);
});
afterAll(async () => {
  await observer?.close();
  await gateway?.close();
  await xpub?.close();
  await delivery?.close();
  await database?.drop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: { message?: string; errors?: Record<string, string[]>; data?: { id: number; total?: number } };
}
async function call(method: string, path: string, as: { key: string }, body?: unknown): Promise<Answer> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { "x-api-key": as.key, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Answer["body"]) : {} };
}
/** Distinct valid Ethereum addresses (the registry checks the form only). */
const ethAddresses = (count: number) => Array.from({ length: count }, () => `0x${randomBytes(20).toString("hex")}`);
const createWebhook = (as: { key: string }, addresses = ethAddresses(1), extra: Record<string, unknown> = {}) =>
  call("POST", "/api/v1/webhooks", as, { coin: "ETH", webhook_url: URL_OK, addresses, ...extra });
const addressCount = async (as: { key: string }, id: number) => ((await call("GET", `/api/v1/webhooks/${id}`, as)).body.data as unknown as { address_count: number }).address_count;
const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort();
const quotaTable = async (accountId: number) =>
  (await runAdminCli(database.connectionString, ["quotas", "--account", String(accountId)], { DELIVERY_URL: delivery.url, XPUB_URL: xpub.url, INTERNAL_TOKEN }))
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));

describe("QUOTA_WEBHOOKS_PER_ACCOUNT", () => {
  it("lets exactly the quota of parallel creates through; the rest get 422 {message, errors.webhooks} naming it; another account is unaffected", async () => {
    const account = await createAccountWithKey(database.connectionString, "webhooks");
    const answers = await Promise.all(Array.from({ length: 8 }, () => createWebhook(account)));
    expect(statuses(answers)).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    const message = `This account already has ${WEBHOOKS} webhooks, its quota (QUOTA_WEBHOOKS_PER_ACCOUNT = ${WEBHOOKS}); delete a webhook or ask the operator to raise the quota.`;
    for (const refused of answers.filter((answer) => answer.status === 422)) expect(refused.body).toEqual({ message, errors: { webhooks: [message] } });
    const listed = await call("GET", "/api/v1/webhooks", account);
    expect((listed.body as { meta: { total: number } }).meta.total).toBe(WEBHOOKS);

    expect((await createWebhook(await createAccountWithKey(database.connectionString, "other"))).status).toBe(201);
    // A deleted webhook frees its slot.
    expect((await call("DELETE", `/api/v1/webhooks/${answers.find((answer) => answer.status === 201)!.body.data!.id}`, account)).status).toBe(204);
    expect((await createWebhook(account)).status).toBe(201);
    expect((await createWebhook(account)).status).toBe(422);
  });
});

describe("QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", () => {
  it("counts over the account's webhooks: of two parallel batch adds that together pass it, exactly one is stored", async () => {
    const account = await createAccountWithKey(database.connectionString, "addresses");
    const first = (await createWebhook(account, ethAddresses(3))).body.data!.id;
    const second = (await createWebhook(account, ethAddresses(3))).body.data!.id;
    const answers = await Promise.all([first, second].map((id) => call("POST", `/api/v1/webhooks/${id}/addresses`, account, { addresses: ethAddresses(3) })));
    expect(statuses(answers)).toEqual([200, 422]);
    const refused = answers.find((answer) => answer.status === 422)!;
    const message = `This account would watch 12 addresses over its webhooks, more than its quota (QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT = ${ADDRESSES}); remove addresses or ask the operator to raise the quota.`;
    expect(refused.body).toEqual({ message, errors: { addresses: [message] } });
    // Nothing of the refused batch was kept.
    const counts = new Map(await Promise.all([first, second].map(async (id) => [(await addressCount(account, id)), id] as const)));
    expect([...counts.keys()].sort()).toEqual([3, 6]);

    // A create or a PUT that would pass it is refused the same way; one that fits passes.
    expect((await createWebhook(account, ethAddresses(2))).body.errors?.addresses).toHaveLength(1);
    const smaller = counts.get(3)!;
    expect((await call("PUT", `/api/v1/webhooks/${smaller}`, account, { addresses: ethAddresses(5) })).status).toBe(422);
    expect((await call("PUT", `/api/v1/webhooks/${smaller}`, account, { addresses: ethAddresses(4) })).status).toBe(200);
    expect(await addressCount(account, smaller)).toBe(4);
  });

  it("counts the addresses a named key issues without refusing them; the client's own additions are refused while the account is past the quota", async () => {
    const account = await createAccountWithKey(database.connectionString, "keys");
    const id = (await createWebhook(account, ethAddresses(9), { xpub_ids: [41] })).body.data!.id;
    for (const [index, address] of ethAddresses(3).entries()) {
      await observer.bus.publish(addressIssued, { account_id: account.accountId, xpub_id: 41, coin: "ETH", address, index, issued_at: new Date().toISOString() });
    }
    await expect.poll(() => addressCount(account, id), { timeout: 10_000 }).toBe(12);
    const added = await call("POST", `/api/v1/webhooks/${id}/addresses`, account, { addresses: ethAddresses(1) });
    expect(added.status).toBe(422);
    expect(added.body.errors!.addresses![0]).toContain("would watch 13 addresses");
    // Removing is always possible.
    expect((await call("DELETE", `/api/v1/webhooks/${id}/addresses`, account, { addresses: ethAddresses(1) })).status).toBe(200);
  });
});

describe("QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE", () => {
  it("queues the quota of parallel test events; the next is 429 {message} with Retry-After up to 60 seconds; another webhook has its own", async () => {
    const account = await createAccountWithKey(database.connectionString, "test events");
    const id = (await createWebhook(account)).body.data!.id;
    const answers = await Promise.all(Array.from({ length: TEST_EVENTS + 2 }, () => call("POST", `/api/v1/webhooks/${id}/test`, account)));
    expect(statuses(answers)).toEqual([202, 202, 429, 429]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body).toEqual({
        message: expect.stringMatching(new RegExp(`^This webhook has queued ${TEST_EVENTS} test events in the last minute, its quota \\(QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE = ${TEST_EVENTS}\\); retry after \\d+ seconds?\\.$`)),
      });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(59);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    const deliveries = await call("GET", `/api/v1/webhooks/${id}/deliveries`, account);
    expect((deliveries.body as { meta: { total: number } }).meta.total).toBe(TEST_EVENTS);
    expect((await call("POST", `/api/v1/webhooks/${(await createWebhook(account)).body.data!.id}/test`, account)).status).toBe(202);
  });
});

describe("admin quotas --account", () => {
  it("shows the account's usage against every quota, from the delivery and xpub services", async () => {
    const account = await createAccountWithKey(database.connectionString, "cli");
    const id = (await createWebhook(account, ethAddresses(4))).body.data!.id;
    await createWebhook(account, ethAddresses(2));
    expect((await call("POST", `/api/v1/webhooks/${id}/test`, account)).status).toBe(202);
    const key = await call("POST", "/api/v1/btc/xpub", account, { xpub: BIP84_ZPUB });
    expect(key.status).toBe(201);
    expect((await call("POST", `/api/v1/btc/xpub/${(key.body as { id: number }).id}/address`, account)).status).toBe(201);

    expect(await quotaTable(account.accountId)).toEqual([
      ["service", "quota", "used", "limit"],
      ["delivery", "QUOTA_WEBHOOKS_PER_ACCOUNT", "2", String(WEBHOOKS)],
      ["delivery", "QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", "6", String(ADDRESSES)],
      ["delivery", "QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE", "1", String(TEST_EVENTS)],
      ["xpub", "QUOTA_XPUB_RECORDS_PER_ACCOUNT", "1", "1000"],
      ["xpub", "XPUB_MAX_ADDRESSES_PER_KEY (busiest key)", "1", "100000"],
    ]);
  }, 60_000);

  it("refuses the internal quota route without the internal token", async () => {
    const response = await fetch(`${delivery.url}/internal/quotas/1`);
    expect(response.status).toBe(401);
  });
});
