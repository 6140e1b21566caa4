/**
 * Extended keys of a configured EVM chain (issue #31) auto-watched by that chain's webhooks: the
 * real xpub service and the real delivery service, both with EVM_CHAINS naming polygon, on one
 * Postgres and one NATS namespace. An address issued before the webhook named the key comes from
 * the key's history (`/api/v1/polygon/xpub/{id}/addresses`), one issued after from `address.issued`
 * (coin POLYGON); both watched in lower case, as every EVM webhook matches. An Ethereum webhook
 * naming the POLYGON key watches nothing from it.
 */
import { freshEvmAccountKey, startTestXpub } from "@chaingate/xpub/testing";
import { expect } from "vitest";
import type { DeliveryService } from "./create-delivery-service.ts";
import { callAsAccount, startTestDelivery } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const EVM_CHAINS = JSON.stringify([{ name: "polygon" }]);
const ACCOUNT = 21;
const URL_OK = "http://93.184.216.34/hook";
const ACCOUNT_XPUB = freshEvmAccountKey();
/** The webhook's own address (the field is required). */
const LISTED = "0x00000000000000000000000000000000000000aa";

const request = (base: string, method: string, path: string, body?: unknown) =>
  callAsAccount<{ data?: Record<string, unknown> } & Record<string, unknown>>(base, method, path, ACCOUNT, body);
const watched = async (delivery: DeliveryService, id: number) =>
  ((await request(delivery.url, "GET", `/api/v1/webhooks/${id}`)).body.data!.addresses as string[]).toSorted();

const it = deliveryTest.extend<{ polygonXpub: Awaited<ReturnType<typeof startTestXpub>>; polygonDelivery: DeliveryService }>({
  polygonXpub: [
    async ({ database, bus }, use) => {
      const xpub = await startTestXpub(database.connectionString, { ...bus.env, EVM_CHAINS });
      try {
        await use(xpub);
      } finally {
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
  polygonDelivery: [
    async ({ database, deliveryEnv, polygonXpub }, use) => {
      const delivery = await startTestDelivery(database.connectionString, { ...deliveryEnv, EVM_CHAINS, XPUB_URL: polygonXpub.url });
      try {
        await use(delivery);
      } finally {
        await delivery.close();
      }
    },
    { scope: "file" },
  ],
});

it("a POLYGON webhook watches what its POLYGON key issued, before and after it named the key, in lower case", async ({
  polygonXpub: xpub,
  polygonDelivery: delivery,
}) => {
  const registered = await request(xpub.url, "POST", "/api/v1/polygon/xpub", { xpub: ACCOUNT_XPUB });
  expect(registered.body).toMatchObject({ chain: "POLYGON" });
  const keyId = registered.body.id as number;
  const issue = async () => (await request(xpub.url, "POST", `/api/v1/polygon/xpub/${keyId}/address`)).body.address_lowercase as string;
  const before = await issue();

  const created = await request(delivery.url, "POST", "/api/v1/webhooks", {
    coin: "POLYGON",
    webhook_url: URL_OK,
    addresses: [LISTED],
    xpub_ids: [keyId],
  });
  expect([created.status, created.body.errors]).toEqual([201, undefined]);
  const id = created.body.data!.id as number;
  await expect.poll(() => watched(delivery, id), { timeout: 15_000 }).toEqual([LISTED, before].sort());

  const after = await issue();
  await xpub.drainAddressEvents();
  await expect.poll(() => watched(delivery, id), { timeout: 15_000 }).toEqual([LISTED, before, after].sort());
  expect(after).toMatch(/^0x[0-9a-f]{40}$/);

  // Keys are per chain: an Ethereum webhook naming the POLYGON key gets none of its addresses.
  const eth = await request(delivery.url, "POST", "/api/v1/webhooks", {
    coin: "ETH",
    webhook_url: URL_OK,
    addresses: [LISTED],
    xpub_ids: [keyId],
  });
  const ethId = eth.body.data!.id as number;
  await delivery.drainKeyHistories();
  expect(await watched(delivery, ethId)).toEqual([LISTED]);
});
