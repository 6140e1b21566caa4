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
import { startTestXpub, BIP84_VECTORS } from "@chaingate/xpub/testing";
import { expect } from "vitest";
import { drillTest, PRODUCT_START_MS } from "../testing/drill-fixtures.ts";

const URL_OK = "http://93.184.216.34/hook";
const WEBHOOKS = 3;
const ADDRESSES = 10;
const TEST_EVENTS = 2;
const INTERNAL_TOKEN = randomBytes(16).toString("hex");

/** The delivery service (quotas lowered) and the xpub service over the file's database and bus, and the gateway in front. */
interface QuotaServices {
  delivery: Awaited<ReturnType<typeof startTestDelivery>>;
  xpub: Awaited<ReturnType<typeof startTestXpub>>;
  gateway: Awaited<ReturnType<typeof startTestGateway>>;
}

const it = drillTest.extend<{ quotaServices: QuotaServices }>({
  quotaServices: [
    async ({ database, bus }, use) => {
      const common = { ...bus.env, INTERNAL_TOKEN };
      const delivery = await startTestDelivery(database.connectionString, {
        ...common,
        QUOTA_WEBHOOKS_PER_ACCOUNT: String(WEBHOOKS),
        QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT: String(ADDRESSES),
        QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE: String(TEST_EVENTS),
      });
      try {
        const xpub = await startTestXpub(database.connectionString, common);
        try {
          const gateway = await startTestGateway(
            { DELIVERY_URL: delivery.url, XPUB_URL: xpub.url, INTERNAL_TOKEN },
            database.connectionString,
          );
          try {
            await use({ delivery, xpub, gateway });
          } finally {
            await gateway.close();
          }
        } finally {
          await xpub.close();
        }
      } finally {
        await delivery.close();
      }
    },
    { scope: "file" },
  ],
});

/** A JSON call through the gateway with the account's key: its status and body. */
async function call(
  gateway: QuotaServices["gateway"],
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
const createWebhook = (gateway: QuotaServices["gateway"], key: string, addresses: string[]) =>
  call(gateway, "POST", "/api/v1/webhooks", key, { coin: "ETH", webhook_url: URL_OK, addresses });
const quotaTable = async ({ delivery, xpub }: QuotaServices, databaseUrl: string, accountId: number) =>
  (
    await runAdminCli(databaseUrl, ["quotas", "--account", String(accountId)], {
      DELIVERY_URL: delivery.url,
      XPUB_URL: xpub.url,
      INTERNAL_TOKEN,
    })
  )
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));

it(
  "shows the account's usage against every quota, from the delivery and xpub services",
  async ({ quotaServices, database }) => {
    const { gateway } = quotaServices;
    const { accountId, key } = await createAccountWithKey(database.connectionString, "cli");
    const id = (await createWebhook(gateway, key, ethAddresses(4))).body.data!.id;
    await createWebhook(gateway, key, ethAddresses(2));
    expect((await call(gateway, "POST", `/api/v1/webhooks/${id}/test`, key)).status).toBe(202);
    const record = await call(gateway, "POST", "/api/v1/btc/xpub", key, { xpub: BIP84_VECTORS.accounts[0]!.zpub });
    expect(record.status).toBe(201);
    expect((await call(gateway, "POST", `/api/v1/btc/xpub/${record.body.id}/address`, key)).status).toBe(201);

    expect(await quotaTable(quotaServices, database.connectionString, accountId)).toEqual([
      ["service", "quota", "used", "limit"],
      ["gateway", "QUOTA_API_KEYS_PER_ACCOUNT", "1", "100"],
      ["delivery", "QUOTA_WEBHOOKS_PER_ACCOUNT", "2", String(WEBHOOKS)],
      ["delivery", "QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", "6", String(ADDRESSES)],
      ["delivery", "QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE", "1", String(TEST_EVENTS)],
      ["xpub", "QUOTA_XPUB_RECORDS_PER_ACCOUNT", "1", "1000"],
      ["xpub", "XPUB_MAX_ADDRESSES_PER_KEY (busiest key)", "1", "100000"],
    ]);
  },
  60_000 + PRODUCT_START_MS,
);
