/**
 * The product end to end, every service a real process: a client registers a webhook through the
 * gateway, payments to the watched addresses are mined on litecoind regtest, Anvil and the Tron
 * simulator, the scanner matches them, and the delivery service POSTs notifications that the
 * client's receiver verifies with its secret — exact amounts, currencies, transactions, output
 * indexes and execution results, each once; nothing for a block mined before the webhook existed.
 * The delivery log is read with the typed client generated from the OpenAPI document
 * (@chaingate/api-client), as an integrator would.
 */
import { createApiClient, type ApiClient } from "@chaingate/api-client";
import { deployUsdtLikeToken, type DeployedToken } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { CreatedWebhook, NotificationStack, ReceivedNotification } from "./notification-stack.ts";
import { paidOutputs } from "./paid-outputs.ts";
import { processedBlocks, waitUntilProcessed } from "./scanner-watch.ts";
import { drillTest, PRODUCT_START_MS, useNotificationStack } from "./testing/drill-fixtures.ts";

/** The simulator's USDT (mainnet's contract address, in the scanner's default whitelist) and its first TRC-10 token. */
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRC10_ID = "1000001";
/** How long the receiver must stay quiet after the expected notifications: anything more is a duplicate. */
const QUIET_MS = 1_500;
const ARRIVAL_TIMEOUT_MS = 30_000;

drillTest.scoped({ drillSettings: { scannerEnv: { SCANNER_POLL_INTERVAL_MS: "200" } } });
const it = drillTest.extend<{
  /** The dev stack's USDT-like ERC-20 on the file's Anvil, whitelisted in the scanner's ETH_TOKENS as the dev stack does. */
  usdtToken: DeployedToken;
  /** The product following the file's mature litecoind, Anvil (with the token) and Tron simulator. */
  depositProduct: NotificationStack;
  /** The typed client generated from the OpenAPI document, with the product's API key. */
  depositApi: ApiClient;
}>({
  usdtToken: [async ({ anvil }, use) => use(await deployUsdtLikeToken(anvil)), { scope: "file" }],
  depositProduct: [
    async ({ database, matureLitecoind, anvil, tronDevnode, usdtToken: token, drillSettings }, use) => {
      const settings = {
        ...drillSettings,
        scannerEnv: { ...drillSettings.scannerEnv, ETH_TOKENS: `USDT:${token.address}:${token.decimals}` },
      };
      await useNotificationStack(database, { bitcoin: matureLitecoind, ethereumUrl: anvil.url, tronUrl: tronDevnode.url }, settings, use);
    },
    { scope: "file" },
  ],
  depositApi: [
    async ({ depositProduct: product }, use) => use(createApiClient({ baseUrl: product.gatewayUrl, apiKey: product.apiKey })),
    { scope: "file" },
  ],
});
/** Every test may be the first one run (with -t): the product starts inside it. */
const TIMEOUT_MS = 60_000 + PRODUCT_START_MS;

/** Waits for `count` notifications to `webhook`, then that nothing more follows; each must verify with its secret. */
async function exactly(product: NotificationStack, webhook: CreatedWebhook, count: number): Promise<ReceivedNotification["payload"][]> {
  await expect
    .poll(() => product.notifications(webhook).length, { timeout: ARRIVAL_TIMEOUT_MS, interval: 200 })
    .toBeGreaterThanOrEqual(count);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  const received = product.notifications(webhook);
  expect(received.map((n) => n.payload)).toHaveLength(count);
  expect(received.map((n) => n.signed)).toEqual(received.map(() => true));
  return received.map((n) => n.payload);
}

describe("a deposit to a watched address", () => {
  it(
    "on Bitcoin reaches the client's receiver once, signed with the webhook's secret, with the exact amount, transaction, output and block",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ depositProduct: product, depositApi: api, matureLitecoind: node }) => {
      const address = await node.walletRpc<string>("getnewaddress");
      const webhook = await product.createWebhook("BTC", [address]);
      const txid = await node.fundAddress(address, "1.23456789");
      const position = (await paidOutputs(node, txid)).get(address);
      const [blockHash] = await node.mine(1);
      const [notification] = await exactly(product, webhook, 1);
      // The delivery log agrees, read through the generated client.
      const delivered = async () => {
        const { data, error } = await api.GET("/api/v1/webhooks/{webhook}/deliveries", {
          params: { path: { webhook: webhook.id }, query: { status: "delivered" } },
        });
        expect(error).toBeUndefined();
        return data?.data.map((delivery) => ({ event_id: delivery.event_id, status: delivery.status, attempts: delivery.attempts }));
      };
      await expect.poll(delivered, { timeout: 10_000 }).toEqual([{ event_id: notification!.event_id, status: "delivered", attempts: 1 }]);
      expect(notification).toMatchObject({
        type: "transfer",
        webhook_id: webhook.id,
        coin: "BTC",
        currency: "BTC",
        to: address,
        watched_address: address,
        amount: "1.23456789",
        raw_amount: "123456789",
        decimals: 8,
        txid,
        position,
        block: { hash: blockHash },
        execution_status: "SUCCESS",
        confirmations: 1,
      });
    },
  );

  it(
    "on Bitcoin, one transaction paying two watched outputs of one webhook gives two notifications, one per output, with distinct event ids",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ depositProduct: product, matureLitecoind: node }) => {
      const [first, second] = [await node.walletRpc<string>("getnewaddress"), await node.walletRpc<string>("getnewaddress")];
      const webhook = await product.createWebhook("BTC", [first, second]);
      const txid = await node.walletRpc<string>("sendmany", ["", { [first]: "0.11111111", [second]: "0.02000001" }]);
      const outputs = await paidOutputs(node, txid);
      const [blockHash] = await node.mine(1);
      const received = await exactly(product, webhook, 2);
      const byPosition = new Map(received.map((n) => [n.position, n]));
      expect(byPosition.get(outputs.get(first)!)).toMatchObject({
        txid,
        to: first,
        watched_address: first,
        amount: "0.11111111",
        raw_amount: "11111111",
        block: { hash: blockHash },
      });
      expect(byPosition.get(outputs.get(second)!)).toMatchObject({
        txid,
        to: second,
        watched_address: second,
        amount: "0.02000001",
        raw_amount: "2000001",
        block: { hash: blockHash },
      });
      expect(outputs.get(first)).not.toBe(outputs.get(second));
      expect(new Set(received.map((n) => n.event_id)).size).toBe(2);
    },
  );

  it(
    "on Bitcoin, a payment in a block the scanner processed before the webhook existed is never notified; a later one is",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ depositProduct: product, matureLitecoind: node }) => {
      const address = await node.walletRpc<string>("getnewaddress");
      const earlier = await node.fundAddress(address, "0.3");
      const before = await processedBlocks(product.scannerUrl, "BTC");
      await node.mine(1);
      await waitUntilProcessed(product.scannerUrl, "BTC", before);
      const webhook = await product.createWebhook("BTC", [address]);
      const later = await node.fundAddress(address, "0.4");
      await node.mine(1);
      const [notification] = await exactly(product, webhook, 1);
      expect(notification).toMatchObject({ txid: later, amount: "0.4" });
      expect(product.notifications(webhook).map((n) => n.payload.txid)).not.toContain(earlier);
    },
  );
});

// The same product: deposits on the account chains.
describe("a deposit to a watched address", () => {
  it(
    "on Ethereum, registered in checksummed form, reaches the receiver once with the exact wei amount",
    { timeout: TIMEOUT_MS },
    async ({ depositProduct: product, anvil }) => {
      const [sender, recipient] = [anvil.accounts[1]!.address, anvil.accounts[7]!.address];
      const webhook = await product.createWebhook("ETH", [recipient]);
      const txid = await anvil.rpc<string>("eth_sendTransaction", [{ from: sender, to: recipient, value: "0x1bc16d674ec80001" }]); // 2 ETH + 1 wei
      const [notification] = await exactly(product, webhook, 1);
      expect(notification).toMatchObject({
        type: "transfer",
        webhook_id: webhook.id,
        coin: "ETH",
        currency: "ETH",
        to: recipient.toLowerCase(),
        amount: "2.000000000000000001",
        raw_amount: "2000000000000000001",
        txid,
        execution_status: "SUCCESS",
      });
    },
  );

  it(
    "on Ethereum, a webhook with include_tokens also gets whitelisted ERC-20 transfers (currency USDT, 6 decimals, the log index); a default one gets the native transfer only",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ depositProduct: product, usdtToken: token, anvil }) => {
      const [holder, recipient] = [anvil.accounts[0]!.address, anvil.accounts[11]!.address];
      const withTokens = await product.createWebhook("ETH", [recipient], { include_tokens: true });
      expect(withTokens.include_tokens).toBe(true);
      const nativeOnly = await product.createWebhook("ETH", [recipient]);
      expect(nativeOnly.include_tokens).toBe(false);
      const tokenTx = await anvil.rpc<string>("eth_sendTransaction", [
        { from: holder, to: token.address, data: token.transferData(recipient, 12_345_678n) },
      ]);
      const nativeTx = await anvil.rpc<string>("eth_sendTransaction", [{ from: holder, to: recipient, value: "0xde0b6b3a7640000" }]); // 1 ETH
      const received = await exactly(product, withTokens, 2);
      expect(received.find((n) => n.txid === tokenTx)).toMatchObject({
        type: "transfer",
        coin: "ETH",
        currency: "USDT",
        from: holder.toLowerCase(),
        to: recipient.toLowerCase(),
        watched_address: recipient.toLowerCase(),
        amount: "12.345678",
        raw_amount: "12345678",
        decimals: 6,
        token_contract: token.address,
        position: 0,
        execution_status: "SUCCESS",
      });
      expect(received.find((n) => n.txid === nativeTx)).toMatchObject({ currency: "ETH", amount: "1", token_contract: null });
      // v1 behaviour for the default webhook: the native transfer, nothing for the token.
      expect((await exactly(product, nativeOnly, 1))[0]).toMatchObject({ txid: nativeTx, currency: "ETH", amount: "1" });
      expect(await token.balanceOf(recipient)).toBe(12_345_678n);
    },
  );

  it(
    "on Tron: TRX, a TRC-10 token (currency = its id), USDT and a USDT transfer that ran out of energy reach the receiver signed, each with its amount and execution result",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ depositProduct: product, tronAccounts }) => {
      const { devnode, tronWeb, alice, bob } = tronAccounts;
      const webhook = await product.createWebhook("TRX", [bob.base58]);
      const trx = (await tronWeb.trx.sendTransaction(bob.base58, 1_500_000)).transaction.txID;
      const trc10 = (await tronWeb.trx.sendToken(bob.base58, 2_500_001, TRC10_ID)).transaction.txID;
      const usdt = await tronWeb.contract().at(USDT);
      const usdtTx: string = await usdt.transfer(bob.base58, 2_000_000).send({ feeLimit: 150_000_000 });
      const outOfEnergy: string = await usdt.transfer(bob.base58, 3_000_000).send({ feeLimit: 1_000_000 });
      const { number, blockID } = await devnode.produceBlock();
      const byTx = new Map((await exactly(product, webhook, 4)).map((n) => [n.txid, n]));
      const common = {
        type: "transfer",
        coin: "TRX",
        webhook_id: webhook.id,
        from: alice.base58,
        to: bob.base58,
        watched_address: bob.base58,
        block: { height: number, hash: blockID },
      };
      expect(byTx.get(trx)).toMatchObject({
        ...common,
        currency: "TRX",
        amount: "1.5",
        raw_amount: "1500000",
        decimals: 6,
        token_contract: null,
        execution_status: "SUCCESS",
      });
      expect(byTx.get(trc10)).toMatchObject({
        ...common,
        currency: TRC10_ID,
        amount: "2.500001",
        raw_amount: "2500001",
        execution_status: "SUCCESS",
      });
      expect(byTx.get(usdtTx)).toMatchObject({
        ...common,
        currency: "USDT",
        amount: "2",
        raw_amount: "2000000",
        token_contract: USDT,
        execution_status: "SUCCESS",
      });
      // Notified as the failure it is, never as USDT received.
      expect(byTx.get(outOfEnergy)).toMatchObject({
        ...common,
        currency: "USDT",
        amount: "3",
        token_contract: USDT,
        execution_status: "OUT_OF_ENERGY",
      });
      expect((await tronWeb.trx.getTransactionInfo(outOfEnergy)).receipt?.result).toBe("OUT_OF_ENERGY");
    },
  );
});
