/**
 * Large webhooks at the service's internal edge (answers validated against the OpenAPI document): the
 * list caps each webhook's `addresses` at WEBHOOK_LIST_ADDRESS_CAP with `address_count` beside it,
 * `GET /webhooks/{id}/addresses` pages every address, and the answers about one webhook carry all
 * of them (streamed in chunks of 1,000 addresses, so 26 chunks here).
 */
import { randomBytes } from "node:crypto";
import { addressIssued, WEBHOOK_LIST_ADDRESS_CAP } from "@chaingate/contracts";
import { accountSequence, type InternalEdge } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { type WatchFeedObserver } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const URL_OK = "http://93.184.216.34/hook";
const BATCH = 10_000;
const LARGE = 25_001;

const newAccount = accountSequence();
const alice = newAccount();

interface WebhookAnswer {
  id: number;
  addresses: string[];
  address_count: number;
}
interface Page {
  data: Array<{ address: string; listed: boolean }>;
  meta: { current_page: number; per_page: number; total: number; last_page: number; next_after: string | null };
}
/** A webhook of Alice's with its addresses in address order. */
interface SeededWebhook {
  id: number;
  addresses: string[];
}

async function call<T>(
  edge: InternalEdge,
  method: string,
  path: string,
  as: { accountId: number },
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${edge.url}${path}`, {
    method,
    headers: {
      ...edge.headersFor(as.accountId),
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}
/** Distinct lower-case Ethereum addresses (hex digits only: JS and Postgres order them alike). */
const ethAddresses = (count: number) => Array.from({ length: count }, () => `0x${randomBytes(20).toString("hex")}`);

/** Alice's large webhook (LARGE addresses, the last watched only because its key issued it) and a small one. */
async function seedWebhooks(edge: InternalEdge, observer: WatchFeedObserver): Promise<{ large: SeededWebhook; small: SeededWebhook }> {
  const addresses = ethAddresses(LARGE - 1);
  const created = await call<{ data: WebhookAnswer }>(edge, "POST", "/api/v1/webhooks", alice, {
    coin: "ETH",
    webhook_url: URL_OK,
    addresses: addresses.slice(0, BATCH),
    xpub_ids: [5],
  });
  const id = created.body.data.id;
  for (let start = BATCH; start < addresses.length; start += BATCH) {
    expect(
      (await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, alice, { addresses: addresses.slice(start, start + BATCH) })).status,
    ).toBe(200);
  }
  // One address watched only because its key issued it.
  const issued = `0x${randomBytes(20).toString("hex")}`;
  await observer.bus.publish(addressIssued, {
    account_id: alice.accountId,
    xpub_id: 5,
    coin: "ETH",
    address: issued,
    index: 0,
    issued_at: new Date().toISOString(),
  });
  const deadline = Date.now() + 10_000;
  while ((await call<{ data: WebhookAnswer }>(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data.address_count < LARGE) {
    if (Date.now() > deadline) throw new Error("the issued address was not watched within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const smallAddresses = ethAddresses(3);
  const small = await call<{ data: WebhookAnswer }>(edge, "POST", "/api/v1/webhooks", alice, {
    coin: "ETH",
    webhook_url: URL_OK,
    addresses: smallAddresses,
  });
  return { large: { id, addresses: [...addresses, issued].sort() }, small: { id: small.body.data.id, addresses: smallAddresses.sort() } };
}

const it = deliveryTest.extend<{ webhooks: { large: SeededWebhook; small: SeededWebhook } }>({
  webhooks: [async ({ edge, watchFeed }, use) => use(await seedWebhooks(edge, watchFeed)), { scope: "file" }],
});
/** The file's first test also waits for the service and the seeding (its fixtures): the time the set-up hook had. */
const FIRST_TEST_TIMEOUT_MS = 120_000;

describe("GET /api/v1/webhooks", () => {
  it(
    `caps each webhook's addresses at the first ${WEBHOOK_LIST_ADDRESS_CAP} in address order, with address_count; a small webhook is whole`,
    async ({ edge, webhooks: { large, small } }) => {
      const { status, body } = await call<{ data: WebhookAnswer[] }>(edge, "GET", "/api/v1/webhooks", alice);
      expect(status).toBe(200);
      const [first, second] = body.data;
      expect(first).toMatchObject({ id: large.id, address_count: LARGE });
      expect(first!.addresses).toEqual(large.addresses.slice(0, WEBHOOK_LIST_ADDRESS_CAP));
      expect(second).toMatchObject({ id: small.id, address_count: 3, addresses: small.addresses });
    },
    FIRST_TEST_TIMEOUT_MS,
  );
});

describe("GET /api/v1/webhooks/{id}", () => {
  it("carries every address, in order, across the streamed chunks; PUT and secret rotation too", async ({ edge, webhooks: { large } }) => {
    const { status, body } = await call<{ data: WebhookAnswer & Record<string, unknown> }>(
      edge,
      "GET",
      `/api/v1/webhooks/${large.id}`,
      alice,
    );
    expect(status).toBe(200);
    expect(body.data.addresses).toEqual(large.addresses);
    expect(body.data.address_count).toBe(LARGE);
    // The spec's field order: addresses right after webhook_url.
    expect(Object.keys(body.data).slice(0, 6)).toEqual(["id", "user_id", "coin", "webhook_url", "addresses", "address_count"]);
    const rotated = await call<{ data: WebhookAnswer }>(edge, "POST", `/api/v1/webhooks/${large.id}/secret`, alice);
    expect(rotated.body.data.addresses).toEqual(large.addresses);
    const updated = await call<{ data: WebhookAnswer }>(edge, "PUT", `/api/v1/webhooks/${large.id}`, alice, { confirmations: 2 });
    expect(updated.body.data.addresses).toEqual(large.addresses);
  });
});

describe("GET /api/v1/webhooks/{id}/addresses", () => {
  it("pages every address in address order with the page meta; listed is false for the one its key issued", async ({
    edge,
    webhooks: { large },
  }) => {
    const seen: Page["data"] = [];
    for (let page = 1; ; page++) {
      const { status, body } = await call<Page>(
        edge,
        "GET",
        `/api/v1/webhooks/${large.id}/addresses?per_page=${BATCH}&page=${page}`,
        alice,
      );
      expect(status).toBe(200);
      expect(body.meta).toEqual({
        current_page: page,
        per_page: BATCH,
        total: LARGE,
        last_page: 3,
        next_after: page < 3 ? body.data.at(-1)!.address : null,
      });
      seen.push(...body.data);
      if (page === body.meta.last_page) break;
    }
    expect(seen.map((entry) => entry.address)).toEqual(large.addresses);
    expect(seen.filter((entry) => !entry.listed)).toHaveLength(1);
  });

  it("reads on from meta.next_after (after=) to the same addresses, until next_after is null", async ({ edge, webhooks: { large } }) => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = after === null ? "" : `&after=${encodeURIComponent(after)}`;
      const { status, body }: { status: number; body: Page } = await call<Page>(
        edge,
        "GET",
        `/api/v1/webhooks/${large.id}/addresses?per_page=${BATCH}${query}`,
        alice,
      );
      expect(status).toBe(200);
      seen.push(...body.data.map((entry) => entry.address));
      after = body.meta.next_after;
      pages++;
    } while (after !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(large.addresses);
    const tail = await call<Page>(edge, "GET", `/api/v1/webhooks/${large.id}/addresses?per_page=2&after=${large.addresses.at(-3)}`, alice);
    expect(tail.body.data.map((entry) => entry.address)).toEqual(large.addresses.slice(-2));
  });

  it("defaults to 1,000 per page; a page past the last is empty with the real meta", async ({ edge, webhooks: { small } }) => {
    const first = await call<Page>(edge, "GET", `/api/v1/webhooks/${small.id}/addresses`, alice);
    expect(first.body).toEqual({
      data: small.addresses.map((address) => ({ address, listed: true })),
      meta: { current_page: 1, per_page: 1_000, total: 3, last_page: 1, next_after: null },
    });
    const past = await call<Page>(edge, "GET", `/api/v1/webhooks/${small.id}/addresses?page=5`, alice);
    expect(past.body).toEqual({ data: [], meta: { current_page: 5, per_page: 1_000, total: 3, last_page: 1, next_after: null } });
  });

  it("422 for a per_page over 10,000 or not an integer; 404 for another account's webhook", async ({ edge, webhooks: { small } }) => {
    const tooMany = await call<{ message: string; errors: Record<string, string[]> }>(
      edge,
      "GET",
      `/api/v1/webhooks/${small.id}/addresses?per_page=10001`,
      alice,
    );
    expect(tooMany).toEqual({
      status: 422,
      body: {
        message: "The per page field must not be greater than 10000.",
        errors: { per_page: ["The per page field must not be greater than 10000."] },
      },
    });
    expect((await call(edge, "GET", `/api/v1/webhooks/${small.id}/addresses?page=x`, alice)).status).toBe(422);
    const bob = newAccount();
    expect(await call(edge, "GET", `/api/v1/webhooks/${small.id}/addresses`, bob)).toEqual({
      status: 404,
      body: { message: `No webhook with id ${small.id} was found.` },
    });
  });
});
