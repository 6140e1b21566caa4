/**
 * Addresses watched through `xpub_ids` (issue 16, item 8) on the delivery's own HTTP app over a real
 * Postgres and NATS: they are kept apart from the client's own list, so a PUT of `addresses` does not
 * drop them, naming a key includes what it issued before, and removing a key stops watching what
 * only it brought. Checked in the answers and in the watch feed the scanner builds its list from.
 */
import { randomBytes } from "node:crypto";
import { addressIssued, bucketBitsFor, bucketHash, bucketOf, MAX_ADDRESSES_PER_BUCKET, type Coin } from "@chaingate/contracts";
import { describe, expect } from "vitest";
import { ADDRESS_ISSUED_CONSUMER, type DeliveryService } from "../create-delivery-service.ts";
import { callAsAccount, type WatchFeedObserver } from "../testing/index.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const URL_OK = "http://93.184.216.34/hook";
const ACCOUNT = 41;

let nextKey = 1_000;
let nextIndex = 0;

const it = deliveryTest;

/** One call to the service's API as ACCOUNT. */
const call = (delivery: DeliveryService, method: string, path: string, body?: unknown) =>
  callAsAccount<{ data?: Record<string, unknown>; errors?: Record<string, string[]> }>(delivery.url, method, path, ACCOUNT, body);
const ethAddress = () => `0x${randomBytes(20).toString("hex")}`;
async function createWebhook(delivery: DeliveryService, addresses: string[], xpubIds: number[] = []): Promise<number> {
  const { status, body } = await call(delivery, "POST", "/api/v1/webhooks", {
    coin: "ETH",
    webhook_url: URL_OK,
    addresses,
    xpub_ids: xpubIds,
  });
  expect(status).toBe(201);
  return body.data!.id as number;
}
const watched = async (delivery: DeliveryService, id: number) =>
  ((await call(delivery, "GET", `/api/v1/webhooks/${id}`)).body.data!.addresses as string[]).toSorted();

/** Publishes `address.issued` for each address and waits until the registry consumed all of them. */
async function issue(observer: WatchFeedObserver, xpubId: number, addresses: string[], coin: Coin = "ETH"): Promise<void> {
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
async function feedAgrees(observer: WatchFeedObserver, id: number, expected: string[]): Promise<void> {
  await expect.poll(() => observer.stateOf(id).addresses, { timeout: 10_000 }).toEqual(expected.toSorted());
}

describe("addresses watched through xpub_ids", () => {
  it("a PUT of addresses replaces the client's list and keeps the addresses the webhook's keys issued", async ({ delivery, watchFeed }) => {
    const key = nextKey++;
    const [listed, replacement] = [ethAddress(), ethAddress()];
    const id = await createWebhook(delivery, [listed], [key]);
    const issued = ethAddress();
    await issue(watchFeed, key, [issued]);
    await expect.poll(() => watched(delivery, id), { timeout: 10_000 }).toEqual([listed, issued].sort());

    const { status, body } = await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { addresses: [replacement] });
    expect(status).toBe(200);
    expect((body.data!.addresses as string[]).toSorted()).toEqual([replacement, issued].sort());
    await feedAgrees(watchFeed, id, [replacement, issued]);
  });

  it("naming a key (create or PUT) includes the addresses it issued before", async ({ delivery, watchFeed }) => {
    const key = nextKey++;
    const earlier = [ethAddress(), ethAddress()];
    await issue(watchFeed, key, earlier);
    const listed = ethAddress();

    const created = await createWebhook(delivery, [listed], [key]);
    expect(await watched(delivery, created)).toEqual([listed, ...earlier].sort());
    await feedAgrees(watchFeed, created, [listed, ...earlier]);

    const updated = await createWebhook(delivery, [listed]);
    const { status, body } = await call(delivery, "PUT", `/api/v1/webhooks/${updated}`, { xpub_ids: [key] });
    expect(status).toBe(200);
    expect((body.data!.addresses as string[]).toSorted()).toEqual([listed, ...earlier].sort());
    await feedAgrees(watchFeed, updated, [listed, ...earlier]);
    // Issued later: added as before.
    const later = ethAddress();
    await issue(watchFeed, key, [later]);
    await expect.poll(() => watched(delivery, updated), { timeout: 10_000 }).toEqual([listed, ...earlier, later].sort());
  });

  it("removing a key stops watching what only it issued; an address the client listed too stays", async ({ delivery, watchFeed }) => {
    const [kept, dropped] = [nextKey++, nextKey++];
    const [fromKept, fromDropped, alsoListed] = [ethAddress(), ethAddress(), ethAddress()];
    await issue(watchFeed, kept, [fromKept]);
    await issue(watchFeed, dropped, [fromDropped, alsoListed]);
    const listed = ethAddress();
    const id = await createWebhook(delivery, [listed, alsoListed], [kept, dropped]);
    expect(await watched(delivery, id)).toEqual([listed, alsoListed, fromKept, fromDropped].sort());

    const { body } = await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { xpub_ids: [kept] });
    expect((body.data!.addresses as string[]).toSorted()).toEqual([listed, alsoListed, fromKept].sort());
    await feedAgrees(watchFeed, id, [listed, alsoListed, fromKept]);
    // And both at once: the new list plus the remaining key's addresses.
    const { body: both } = await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { addresses: [alsoListed], xpub_ids: [] });
    expect(both.data!.addresses).toEqual([alsoListed]);
    await feedAgrees(watchFeed, id, [alsoListed]);
  });

  it("removing an address a current key issued leaves it watched (the client's list and the key's addresses add up)", async ({
    delivery,
    watchFeed,
  }) => {
    const key = nextKey++;
    const issued = ethAddress();
    await issue(watchFeed, key, [issued]);
    const listed = ethAddress();
    const id = await createWebhook(delivery, [listed, issued], [key]);
    const { status, body } = await call(delivery, "DELETE", `/api/v1/webhooks/${id}/addresses`, { addresses: [listed, issued] });
    expect(status).toBe(200);
    expect(body.data).toEqual({ removed: 1, total: 1 });
    expect(await watched(delivery, id)).toEqual([issued]);
    await feedAgrees(watchFeed, id, [issued]);
  });

  it("keys of another coin or account never add addresses", async ({ delivery, watchFeed }) => {
    const key = nextKey++;
    await issue(watchFeed, key, ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"], "BTC");
    await watchFeed.bus.publish(addressIssued, {
      account_id: ACCOUNT + 1,
      xpub_id: key,
      coin: "ETH",
      address: ethAddress(),
      index: nextIndex++,
      issued_at: new Date().toISOString(),
    });
    await expect
      .poll(async () => (await watchFeed.bus.consumerProgress(addressIssued, ADDRESS_ISSUED_CONSUMER)).pending, { timeout: 10_000 })
      .toBe(0);
    const listed = ethAddress();
    const id = await createWebhook(delivery, [listed], [key]);
    expect(await watched(delivery, id)).toEqual([listed]);
  });

  it("the bucket cap holds for the union: naming a key whose address would overfill a bucket is a 422 and changes nothing", async ({
    delivery,
    watchFeed,
  }) => {
    const total = MAX_ADDRESSES_PER_BUCKET + 1;
    const bits = bucketBitsFor(total);
    const ground = new Set<string>();
    while (ground.size < total) {
      const address = ethAddress();
      if (bucketOf(bucketHash(address), bits) === 0) ground.add(address);
    }
    const [issued, ...listed] = [...ground];
    const key = nextKey++;
    await issue(watchFeed, key, [issued!]);
    const id = await createWebhook(delivery, listed);
    const { status, body } = await call(delivery, "PUT", `/api/v1/webhooks/${id}`, { xpub_ids: [key] });
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      addresses: [
        `More than ${MAX_ADDRESSES_PER_BUCKET} of this webhook's addresses fall into one bucket of the watch feed; spread these addresses over several webhooks.`,
      ],
    });
    const after = (await call(delivery, "GET", `/api/v1/webhooks/${id}`)).body.data!;
    expect(after.xpub_ids).toEqual([]);
    expect((after.addresses as string[]).length).toBe(MAX_ADDRESSES_PER_BUCKET);
  });
});
