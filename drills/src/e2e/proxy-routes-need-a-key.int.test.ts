/**
 * The node routes through the real gateway in front of the three real proxies (each over its dev
 * node): a request without an API key is refused 401 `{message}` by the gateway on the routes that
 * take no input, and the same request with a key passes the gateway, carrying the account and the
 * internal token the proxies require. Answers are checked against the OpenAPI document.
 */
import { startBtcStack } from "@chaingate/btc-proxy/testing";
import { startEthStack } from "@chaingate/eth-proxy/testing";
import { createAccountWithKey, startTestGateway } from "@chaingate/gateway/testing";
import { TEST_INTERNAL_TOKEN } from "@chaingate/testing";
import { startTrxStack } from "@chaingate/trx-proxy/testing";
import { expect } from "vitest";
import { drillTest, PRODUCT_START_MS } from "../testing/drill-fixtures.ts";

const ROUTES_WITHOUT_INPUT = [
  "/api/v1/btc/block/best",
  "/api/v1/btc/mempool",
  "/api/v1/eth/health",
  "/api/v1/eth/account",
  "/api/v1/eth/gas-price",
  "/api/v1/trx/tokens/trc20",
];

/**
 * The three proxies, each over a dev node of its own (started by its package's stack), the gateway in
 * front of them over the file's database, and a key of an account.
 */
const it = drillTest.extend<{ keyedGateway: { url: string; key: string } }>({
  keyedGateway: [
    async ({ database }, use) => {
      const [btc, eth, trx] = await Promise.all([startBtcStack(), startEthStack(), startTrxStack()]);
      try {
        const gateway = await startTestGateway(
          { BTC_PROXY_URL: btc.url, ETH_PROXY_URL: eth.url, TRX_PROXY_URL: trx.proxy.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN },
          database.connectionString,
        );
        try {
          const { key } = await createAccountWithKey(database.connectionString);
          await use({ url: gateway.url, key });
        } finally {
          await gateway.close();
        }
      } finally {
        await Promise.all([btc.stop(), eth.stop(), trx.stop()]);
      }
    },
    { scope: "file" },
  ],
});

const answer = async (gatewayUrl: string, path: string, apiKey: string) => {
  const response = await fetch(`${gatewayUrl}${path}`, { headers: { "x-api-key": apiKey } });
  return { status: response.status, body: (await response.json()) as unknown };
};

it.for(ROUTES_WITHOUT_INPUT)(
  "%s: 401 without a key, answered by the proxy with one",
  { timeout: 60_000 + PRODUCT_START_MS },
  async (path, { keyedGateway: { url, key } }) => {
    expect(await answer(url, path, "")).toMatchObject({ status: 401, body: { message: expect.any(String) } });
    expect((await answer(url, path, key)).status).toBe(200);
  },
);
