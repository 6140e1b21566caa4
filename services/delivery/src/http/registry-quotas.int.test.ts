/**
 * The registry's quotas at the service's internal edge over a real Postgres and NATS, with small
 * quota settings: parallel writes never pass the last free slot, refusals are the spec's 422
 * `{message, errors}` naming the quota, a test event past its rate is 429 with `Retry-After`, and
 * the internal quota route the operator CLI reads needs the internal token. The CLI's table over
 * this service and xpub: drills/src/e2e/admin-quotas.int.test.ts.
 */
import { randomBytes } from "node:crypto";
import { addressIssued } from "@chaingate/contracts";
import { accountSequence, type InternalEdge } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const URL_OK = "http://93.184.216.34/hook";
const WEBHOOKS = 3;
const ADDRESSES = 10;
const TEST_EVENTS = 2;

const newAccount = accountSequence();

const it = deliveryTest;
deliveryTest.scoped({
  deliverySettings: {
    QUOTA_WEBHOOKS_PER_ACCOUNT: String(WEBHOOKS),
    QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT: String(ADDRESSES),
    QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE: String(TEST_EVENTS),
  },
});

interface Answer {
  status: number;
  headers: Headers;
  body: { message?: string; errors?: Record<string, string[]>; data?: { id: number; total?: number } };
}
async function call(edge: InternalEdge, method: string, path: string, as: { accountId: number }, body?: unknown): Promise<Answer> {
  const response = await fetch(`${edge.url}${path}`, {
    method,
    headers: {
      ...edge.headersFor(as.accountId),
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Answer["body"]) : {} };
}
/** Distinct valid Ethereum addresses (the registry checks the form only). */
const ethAddresses = (count: number) => Array.from({ length: count }, () => `0x${randomBytes(20).toString("hex")}`);
const createWebhook = (edge: InternalEdge, as: { accountId: number }, addresses = ethAddresses(1), extra: Record<string, unknown> = {}) =>
  call(edge, "POST", "/api/v1/webhooks", as, { coin: "ETH", webhook_url: URL_OK, addresses, ...extra });
const addressCount = async (edge: InternalEdge, as: { accountId: number }, id: number) =>
  ((await call(edge, "GET", `/api/v1/webhooks/${id}`, as)).body.data as unknown as { address_count: number }).address_count;
const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort();
describe("QUOTA_WEBHOOKS_PER_ACCOUNT", () => {
  it("lets exactly the quota of parallel creates through; the rest get 422 {message, errors.webhooks} naming it; another account is unaffected", async ({
    edge,
  }) => {
    const account = newAccount();
    const answers = await Promise.all(Array.from({ length: 8 }, () => createWebhook(edge, account)));
    expect(statuses(answers)).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    const message = `This account already has ${WEBHOOKS} webhooks, its quota (QUOTA_WEBHOOKS_PER_ACCOUNT = ${WEBHOOKS}); delete a webhook or ask the operator to raise the quota.`;
    for (const refused of answers.filter((answer) => answer.status === 422))
      expect(refused.body).toEqual({ message, errors: { webhooks: [message] } });
    const listed = await call(edge, "GET", "/api/v1/webhooks", account);
    expect((listed.body as { meta: { total: number } }).meta.total).toBe(WEBHOOKS);

    expect((await createWebhook(edge, newAccount())).status).toBe(201);
    // A deleted webhook frees its slot.
    expect(
      (await call(edge, "DELETE", `/api/v1/webhooks/${answers.find((answer) => answer.status === 201)!.body.data!.id}`, account)).status,
    ).toBe(204);
    expect((await createWebhook(edge, account)).status).toBe(201);
    expect((await createWebhook(edge, account)).status).toBe(422);
  });
});

describe("QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", () => {
  it("counts over the account's webhooks: of two parallel batch adds that together pass it, exactly one is stored", async ({ edge }) => {
    const account = newAccount();
    const first = (await createWebhook(edge, account, ethAddresses(3))).body.data!.id;
    const second = (await createWebhook(edge, account, ethAddresses(3))).body.data!.id;
    const answers = await Promise.all(
      [first, second].map((id) => call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, account, { addresses: ethAddresses(3) })),
    );
    expect(statuses(answers)).toEqual([200, 422]);
    const refused = answers.find((answer) => answer.status === 422)!;
    const message = `This account would watch 12 addresses over its webhooks, more than its quota (QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT = ${ADDRESSES}); remove addresses or ask the operator to raise the quota.`;
    expect(refused.body).toEqual({ message, errors: { addresses: [message] } });
    // Nothing of the refused batch was kept.
    const counts = new Map(await Promise.all([first, second].map(async (id) => [await addressCount(edge, account, id), id] as const)));
    expect([...counts.keys()].sort()).toEqual([3, 6]);

    // A create or a PUT that would pass it is refused the same way; one that fits passes.
    expect((await createWebhook(edge, account, ethAddresses(2))).body.errors?.addresses).toHaveLength(1);
    const smaller = counts.get(3)!;
    expect((await call(edge, "PUT", `/api/v1/webhooks/${smaller}`, account, { addresses: ethAddresses(5) })).status).toBe(422);
    expect((await call(edge, "PUT", `/api/v1/webhooks/${smaller}`, account, { addresses: ethAddresses(4) })).status).toBe(200);
    expect(await addressCount(edge, account, smaller)).toBe(4);
  });

  it("counts the addresses a named key issues without refusing them; the client's own additions are refused while the account is past the quota", async ({
    edge,
    watchFeed,
  }) => {
    const account = newAccount();
    const id = (await createWebhook(edge, account, ethAddresses(9), { xpub_ids: [41] })).body.data!.id;
    for (const [index, address] of ethAddresses(3).entries()) {
      await watchFeed.bus.publish(addressIssued, {
        account_id: account.accountId,
        xpub_id: 41,
        coin: "ETH",
        address,
        index,
        issued_at: new Date().toISOString(),
      });
    }
    await expect.poll(() => addressCount(edge, account, id), { timeout: 10_000 }).toBe(12);
    const added = await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, account, { addresses: ethAddresses(1) });
    expect(added.status).toBe(422);
    expect(added.body.errors!.addresses![0]).toContain("would watch 13 addresses");
    // Removing is always possible.
    expect((await call(edge, "DELETE", `/api/v1/webhooks/${id}/addresses`, account, { addresses: ethAddresses(1) })).status).toBe(200);
  });
});

describe("QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE", () => {
  it("queues the quota of parallel test events; the next is 429 {message} with Retry-After up to 60 seconds; another webhook has its own", async ({
    edge,
  }) => {
    const account = newAccount();
    const id = (await createWebhook(edge, account)).body.data!.id;
    const answers = await Promise.all(
      Array.from({ length: TEST_EVENTS + 2 }, () => call(edge, "POST", `/api/v1/webhooks/${id}/test`, account)),
    );
    expect(statuses(answers)).toEqual([202, 202, 429, 429]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body).toEqual({
        message: expect.stringMatching(
          new RegExp(
            `^This webhook has queued ${TEST_EVENTS} test events in the last minute, its quota \\(QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE = ${TEST_EVENTS}\\); retry after \\d+ seconds?\\.$`,
          ),
        ),
      });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(59);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    const deliveries = await call(edge, "GET", `/api/v1/webhooks/${id}/deliveries`, account);
    expect((deliveries.body as { meta: { total: number } }).meta.total).toBe(TEST_EVENTS);
    expect((await call(edge, "POST", `/api/v1/webhooks/${(await createWebhook(edge, account)).body.data!.id}/test`, account)).status).toBe(
      202,
    );
  });
});

describe("the internal quota route", () => {
  it("refuses the internal quota route without the internal token", async ({ delivery }) => {
    const response = await fetch(`${delivery.url}/internal/quotas/1`);
    expect(response.status).toBe(401);
  });
});
