/**
 * The node routes through the real gateway in front of the three real proxies (each over its dev
 * node): a request without an API key is refused 401 `{message}` by the gateway on the routes that
 * take no input, and the same request with a key passes the gateway, carrying the account and the
 * internal token the proxies require. Answers are checked against the OpenAPI document.
 */
import { startBtcStack, type BtcStack } from "@chaingate/btc-proxy/testing";
import { startEthStack, type EthStack } from "@chaingate/eth-proxy/testing";
import { createAccountWithKey, startTestGateway } from "@chaingate/gateway/testing";
import { TEST_INTERNAL_TOKEN } from "@chaingate/testing";
import { startTrxStack, type TrxStack } from "@chaingate/trx-proxy/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

const ROUTES_WITHOUT_INPUT = [
  "/api/v1/btc/block/best",
  "/api/v1/btc/mempool",
  "/api/v1/eth/health",
  "/api/v1/eth/account",
  "/api/v1/eth/gas-price",
  "/api/v1/trx/tokens/trc20",
];

let btc: BtcStack;
let eth: EthStack;
let trx: TrxStack;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let key: string;

beforeAll(async () => {
  [btc, eth, trx] = await Promise.all([startBtcStack(), startEthStack(), startTrxStack()]);
  gateway = await startTestGateway({
    BTC_PROXY_URL: btc.url,
    ETH_PROXY_URL: eth.url,
    TRX_PROXY_URL: trx.proxy.url,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
  });
  ({ key } = await createAccountWithKey(gateway.databaseUrl));
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await gateway?.dropDatabase();
  await Promise.all([btc?.stop(), eth?.stop(), trx?.stop()]);
});

const answer = async (path: string, apiKey: string) => {
  const response = await fetch(`${gateway.url}${path}`, { headers: { "x-api-key": apiKey } });
  return { status: response.status, body: (await response.json()) as unknown };
};

it.each(ROUTES_WITHOUT_INPUT)("%s: 401 without a key, answered by the proxy with one", async (path) => {
  expect(await answer(path, "")).toMatchObject({ status: 401, body: { message: expect.any(String) } });
  expect((await answer(path, key)).status).toBe(200);
});
