/**
 * `GET /api/v1/webhooks?per_page=500` holds a bounded number of address rows whatever the page
 * holds: the answer is streamed, each statement reading at most LIST_ADDRESSES_PER_READ addresses
 * (a page of 500 webhooks of 1,000 addresses was read as one 500,000-row result, about 235 MB of
 * RSS for one answer). The app over a database whose every statement's row count is recorded.
 */
import { createChainRegistry } from "@chaingate/chain-registry";
import type { AddressInfo } from "node:net";
import { WEBHOOK_LIST_ADDRESS_CAP } from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { silentLogger } from "@chaingate/testing";
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from "kysely";
import { expect } from "vitest";
import { createEventHistory } from "../infra/event-history.ts";
import { createDeliveryLog } from "../infra/delivery-log.ts";
import { createWebhookRepository } from "../infra/webhook-repository.ts";
import { LIST_ADDRESSES_PER_READ } from "../infra/webhook-repository/read-capped-addresses.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { createWebhookApp } from "./create-webhook-app.ts";

const ALICE = 1;
const BOB = 2;
const LARGE_WEBHOOKS = 12;
const SMALL_WEBHOOKS = 3;

/** Rows returned by each statement since the last reset. */
const rowsPerStatement: number[] = [];
const countRows: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
    rowsPerStatement.push(result.rows.length);
    return result;
  },
};

/** Alice's webhooks by id, each with its addresses in address order. */
type ExpectedWebhooks = Array<{ id: number; addresses: string[] }>;

const ethAddresses = (count: number, prefix: number) =>
  Array.from({ length: count }, (_, i) => `0x${prefix.toString(16).padStart(8, "0")}${i.toString(16).padStart(32, "0")}`);

/**
 * The webhook app alone on a port of its own, over the file's database read through `countRows`,
 * with LARGE_WEBHOOKS + SMALL_WEBHOOKS webhooks of Alice's (and one of Bob's) stored.
 */
const it = deliveryTest.extend<{ listApp: { url: string; expected: ExpectedWebhooks } }>({
  listApp: [
    async ({ deliveryDb }, use) => {
      const db = deliveryDb.db.withPlugin(countRows);
      const repository = createWebhookRepository(db);
      const http = createWebhookApp({
        repository,
        deliveries: createDeliveryLog(db, () => {}),
        events: createEventHistory(db),
        quotas: { webhooksPerAccount: 1_000, addressesPerAccount: 1_000_000, testEventsPerWebhookPerMinute: 10 },
        bitcoinNetwork: "mainnet",
        chains: createChainRegistry(),
        allowCidrs: [],
        resolveHost: async () => ["93.184.216.34"],
        logger: silentLogger,
        readinessChecks: {},
      });
      const server = http.app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        const webhook = (addresses: string[]) => ({
          coin: "ETH" as const,
          webhook_url: "http://93.184.216.34/hook",
          secret: "whsec_test",
          is_active: true,
          xpub_ids: [],
          confirmations: 1,
          include_tokens: false,
          addresses,
        });
        const expected: ExpectedWebhooks = [];
        for (let i = 0; i < LARGE_WEBHOOKS + SMALL_WEBHOOKS; i++) {
          const addresses = ethAddresses(i < LARGE_WEBHOOKS ? WEBHOOK_LIST_ADDRESS_CAP + 7 : 5, i);
          const { id } = await repository.create(ALICE, webhook(addresses));
          expected.push({ id, addresses: addresses.sort().slice(0, WEBHOOK_LIST_ADDRESS_CAP) });
        }
        await repository.create(BOB, webhook(ethAddresses(10, 999)));
        await use({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, expected });
      } finally {
        await new Promise((resolve) => server.close(() => resolve(undefined)));
      }
    },
    { scope: "file" },
  ],
});

it(`reads a page of webhooks at most ${LIST_ADDRESSES_PER_READ} address rows per statement, and answers it whole`, async ({
  listApp: { url, expected },
}) => {
  rowsPerStatement.length = 0;
  const response = await fetch(`${url}/api/v1/webhooks?per_page=500`, { headers: { [ACCOUNT_ID_HEADER]: String(ALICE) } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = (await response.json()) as { data: Array<{ id: number; addresses: string[]; address_count: number }>; meta: unknown };
  expect(body.meta).toEqual({ current_page: 1, per_page: 500, total: LARGE_WEBHOOKS + SMALL_WEBHOOKS, last_page: 1 });
  expect(body.data.map((webhook) => ({ id: webhook.id, addresses: webhook.addresses }))).toEqual(expected);
  expect(body.data.map((webhook) => webhook.address_count)).toEqual(
    expected.map((_, i) => (i < LARGE_WEBHOOKS ? WEBHOOK_LIST_ADDRESS_CAP + 7 : 5)),
  );
  // The spec's field order: addresses right after webhook_url.
  expect(Object.keys(body.data[0]!).slice(0, 6)).toEqual(["id", "user_id", "coin", "webhook_url", "addresses", "address_count"]);

  expect(Math.max(...rowsPerStatement)).toBeLessThanOrEqual(LIST_ADDRESSES_PER_READ);
  expect(rowsPerStatement.reduce((sum, rows) => sum + rows, 0)).toBeLessThan(LARGE_WEBHOOKS * WEBHOOK_LIST_ADDRESS_CAP + 100);
});

it("answers a page past the last, and an empty account, without reading any address", async ({ listApp: { url } }) => {
  for (const [account, query] of [
    [ALICE, "?page=3&per_page=10"],
    [99, ""],
  ] as const) {
    rowsPerStatement.length = 0;
    const response = await fetch(`${url}/api/v1/webhooks${query}`, { headers: { [ACCOUNT_ID_HEADER]: String(account) } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
    expect(Math.max(0, ...rowsPerStatement)).toBeLessThanOrEqual(1);
  }
});
