/**
 * Addresses watched through `xpub_ids` (issue 16, item 8) on the delivery's own HTTP app over a real
 * Postgres and NATS: they are kept apart from the client's own list, so a PUT of `addresses` does not
 * drop them, naming a key includes what it issued before, and removing a key stops watching what
 * only it brought. Checked in the answers and in the watch feed the scanner builds its list from.
 */
import { randomBytes } from "node:crypto";
import { addressIssued, bucketBitsFor, bucketHash, bucketOf, MAX_ADDRESSES_PER_BUCKET, type Coin } from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { createTestDatabase, type TestDatabase } from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_ISSUED_CONSUMER, type DeliveryService } from "../create-delivery-service.ts";
import { observeWatchFeed, startTestDelivery, type WatchFeedObserver } from "../testing/index.ts";

const NAMESPACE = `k${randomBytes(4).toString("hex")}`;
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const URL_OK = "http://93.184.216.34/hook";
const ACCOUNT = 41;

let database: TestDatabase;
let delivery: DeliveryService;
let observer: WatchFeedObserver;
let nextKey = 1_000;
let nextIndex = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  delivery = await startTestDelivery(database.connectionString, { NATS_URL, NATS_NAMESPACE: NAMESPACE });
  observer = await observeWatchFeed(NATS_URL, NAMESPACE);
  await observer.bus.ensureStreams([addressIssued]);
});
afterAll(async () => {
  await observer?.close();
  await delivery?.close();
  await database?.drop();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data?: Record<string, unknown>; errors?: Record<string, string[]> } }> {
  const response = await fetch(`${delivery.url}${path}`, {
    method,
    headers: {
      accept: "application/json",
      [ACCOUNT_ID_HEADER]: String(ACCOUNT),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}
const ethAddress = () => `0x${randomBytes(20).toString("hex")}`;
async function createWebhook(addresses: string[], xpubIds: number[] = []): Promise<number> {
  const { status, body } = await call("POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses, xpub_ids: xpubIds });
  expect(status).toBe(201);
  return body.data!.id as number;
}
const watched = async (id: number) => ((await call("GET", `/api/v1/webhooks/${id}`)).body.data!.addresses as string[]).toSorted();

/** Publishes `address.issued` for each address and waits until the registry consumed all of them. */
async function issue(xpubId: number, addresses: string[], coin: Coin = "ETH"): Promise<void> {
  for (const address of addresses) {
    await observer.bus.publish(addressIssued, {
      account_id: ACCOUNT,
      xpub_id: xpubId,
      coin,
      address,
      index: nextIndex++,
      issued_at: new Date().toISOString(),
    });
  }
  await expect
    .poll(async () => (await observer.bus.consumerProgress(addressIssued, ADDRESS_ISSUED_CONSUMER)).pending, { timeout: 10_000 })
    .toBe(0);
}
/** Waits until the feed's state of the webhook is the registry's answer, and returns it. */
async function feedAgrees(id: number, expected: string[]): Promise<void> {
  await expect.poll(() => observer.stateOf(id).addresses, { timeout: 10_000 }).toEqual(expected.toSorted());
}

describe("addresses watched through xpub_ids", () => {
  it("a PUT of addresses replaces the client's list and keeps the addresses the webhook's keys issued", async () => {
    const key = nextKey++;
    const [listed, replacement] = [ethAddress(), ethAddress()];
    const id = await createWebhook([listed], [key]);
    const issued = ethAddress();
    await issue(key, [issued]);
    await expect.poll(() => watched(id), { timeout: 10_000 }).toEqual([listed, issued].sort());

    const { status, body } = await call("PUT", `/api/v1/webhooks/${id}`, { addresses: [replacement] });
    expect(status).toBe(200);
    expect((body.data!.addresses as string[]).toSorted()).toEqual([replacement, issued].sort());
    await feedAgrees(id, [replacement, issued]);
  });

  it("naming a key (create or PUT) includes the addresses it issued before", async () => {
    const key = nextKey++;
    const earlier = [ethAddress(), ethAddress()];
    await issue(key, earlier);
    const listed = ethAddress();

    const created = await createWebhook([listed], [key]);
    expect(await watched(created)).toEqual([listed, ...earlier].sort());
    await feedAgrees(created, [listed, ...earlier]);

    const updated = await createWebhook([listed]);
    const { status, body } = await call("PUT", `/api/v1/webhooks/${updated}`, { xpub_ids: [key] });
    expect(status).toBe(200);
    expect((body.data!.addresses as string[]).toSorted()).toEqual([listed, ...earlier].sort());
    await feedAgrees(updated, [listed, ...earlier]);
    // Issued later: added as before.
    const later = ethAddress();
    await issue(key, [later]);
    await expect.poll(() => watched(updated), { timeout: 10_000 }).toEqual([listed, ...earlier, later].sort());
  });

  it("removing a key stops watching what only it issued; an address the client listed too stays", async () => {
    const [kept, dropped] = [nextKey++, nextKey++];
    const [fromKept, fromDropped, alsoListed] = [ethAddress(), ethAddress(), ethAddress()];
    await issue(kept, [fromKept]);
    await issue(dropped, [fromDropped, alsoListed]);
    const listed = ethAddress();
    const id = await createWebhook([listed, alsoListed], [kept, dropped]);
    expect(await watched(id)).toEqual([listed, alsoListed, fromKept, fromDropped].sort());

    const { body } = await call("PUT", `/api/v1/webhooks/${id}`, { xpub_ids: [kept] });
    expect((body.data!.addresses as string[]).toSorted()).toEqual([listed, alsoListed, fromKept].sort());
    await feedAgrees(id, [listed, alsoListed, fromKept]);
    // And both at once: the new list plus the remaining key's addresses.
    const { body: both } = await call("PUT", `/api/v1/webhooks/${id}`, { addresses: [alsoListed], xpub_ids: [] });
    expect(both.data!.addresses).toEqual([alsoListed]);
    await feedAgrees(id, [alsoListed]);
  });

  it("removing an address a current key issued leaves it watched (the client's list and the key's addresses add up)", async () => {
    const key = nextKey++;
    const issued = ethAddress();
    await issue(key, [issued]);
    const listed = ethAddress();
    const id = await createWebhook([listed, issued], [key]);
    const { status, body } = await call("DELETE", `/api/v1/webhooks/${id}/addresses`, { addresses: [listed, issued] });
    expect(status).toBe(200);
    expect(body.data).toEqual({ removed: 1, total: 1 });
    expect(await watched(id)).toEqual([issued]);
    await feedAgrees(id, [issued]);
  });

  it("keys of another coin or account never add addresses", async () => {
    const key = nextKey++;
    await issue(key, ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"], "BTC");
    await observer.bus.publish(addressIssued, {
      account_id: ACCOUNT + 1,
      xpub_id: key,
      coin: "ETH",
      address: ethAddress(),
      index: nextIndex++,
      issued_at: new Date().toISOString(),
    });
    await expect
      .poll(async () => (await observer.bus.consumerProgress(addressIssued, ADDRESS_ISSUED_CONSUMER)).pending, { timeout: 10_000 })
      .toBe(0);
    const listed = ethAddress();
    const id = await createWebhook([listed], [key]);
    expect(await watched(id)).toEqual([listed]);
  });

  it("the bucket cap holds for the union: naming a key whose address would overfill a bucket is a 422 and changes nothing", async () => {
    const total = MAX_ADDRESSES_PER_BUCKET + 1;
    const bits = bucketBitsFor(total);
    const ground = new Set<string>();
    while (ground.size < total) {
      const address = ethAddress();
      if (bucketOf(bucketHash(address), bits) === 0) ground.add(address);
    }
    const [issued, ...listed] = [...ground];
    const key = nextKey++;
    await issue(key, [issued!]);
    const id = await createWebhook(listed);
    const { status, body } = await call("PUT", `/api/v1/webhooks/${id}`, { xpub_ids: [key] });
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      addresses: [
        `More than ${MAX_ADDRESSES_PER_BUCKET} of this webhook's addresses fall into one bucket of the watch feed; spread these addresses over several webhooks.`,
      ],
    });
    const after = (await call("GET", `/api/v1/webhooks/${id}`)).body.data!;
    expect(after.xpub_ids).toEqual([]);
    expect((after.addresses as string[]).length).toBe(MAX_ADDRESSES_PER_BUCKET);
  });
});
