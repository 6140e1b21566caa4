/**
 * The product end to end, every service a real process: a client registers a webhook through the
 * gateway, a payment to the watched address is mined on litecoind regtest, the scanner matches it,
 * and the delivery service POSTs a notification that the client's receiver verifies with its
 * secret — exact amount, the transaction, the block, once.
 */
import { createHmac, randomBytes } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { createTestDatabase, startHardhat, startLitecoindRegtest, type HardhatNode, type LitecoindRegtest, type TestDatabase } from "@chaingate/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceStack } from "./service-stack.ts";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let database: TestDatabase;
let node: LitecoindRegtest;
let hardhat: HardhatNode;
const stack = createServiceStack();
const received: Received[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    received.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});
let gatewayUrl: string;
let key: string;

beforeAll(async () => {
  [database, node, hardhat] = await Promise.all([createTestDatabase(), startLitecoindRegtest(), startHardhat()]);
  await node.mine(101);
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const shared = { DATABASE_URL: database.connectionString, NATS_NAMESPACE: `e${randomBytes(4).toString("hex")}` };
  const deliveryUrl = await stack.start("delivery", "delivery", {
    ...shared,
    BITCOIN_NETWORK: "litecoin-regtest",
    WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
  });
  await stack.start("scanner", "scanner", {
    ...shared,
    BTC_RPC_URL: node.rpcUrl,
    BTC_RPC_USER: node.rpcUser,
    BTC_RPC_PASSWORD: node.rpcPassword,
    ETH_RPC_URL: hardhat.url,
    SCANNER_POLL_INTERVAL_MS: "200",
  });
  gatewayUrl = await stack.start("gateway", "gateway", { DATABASE_URL: database.connectionString, DELIVERY_URL: deliveryUrl, ACCESS_LOG: "false" });
  ({ key } = await createAccountWithKey(database.connectionString, "e2e"));
}, 180_000);
afterAll(async () => {
  await stack.stop();
  await new Promise((resolve) => receiver.close(resolve));
  await node?.stop();
  await hardhat?.stop();
  await database?.drop();
});

async function createWebhook(coin: string, address: string): Promise<{ id: number; secret: string }> {
  const created = await fetch(`${gatewayUrl}/api/v1/webhooks`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ coin, webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/deposits`, addresses: [address] }),
  });
  expect(created.status).toBe(201);
  const webhook = ((await created.json()) as { data: { id: number; secret: string } }).data;
  // Watching starts at the next block the scanner processes once the webhook reached its watch
  // projection (outbox → webhook.changed → the scanner's own table); read it, do not guess a delay.
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    await expect
      .poll(async () => (await client.query("select 1 from scanner.webhooks where webhook_id = $1", [webhook.id])).rowCount, { timeout: 20_000, interval: 100 })
      .toBe(1);
  } finally {
    await client.end();
  }
  return webhook;
}

/** The one notification the receiver got for `webhookId`, checked against the spec's signature. */
async function onlyNotification(webhook: { id: number; secret: string }): Promise<Record<string, unknown>> {
  const forWebhook = () => received.filter((r) => (JSON.parse(r.body) as { webhook_id: number }).webhook_id === webhook.id);
  await expect.poll(() => forWebhook().length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // nothing more may follow
  expect(forWebhook()).toHaveLength(1);
  const [{ headers, body }] = forWebhook() as [Received];
  const timestamp = String(headers["x-service-timestamp"]);
  expect(headers["x-service-signature"]).toBe(createHmac("sha256", webhook.secret).update(`${timestamp}.${body}`).digest("hex"));
  return JSON.parse(body) as Record<string, unknown>;
}

describe("a deposit to a watched address", () => {
  it("on Bitcoin reaches the client's receiver once, signed with the webhook's secret, with the exact amount, transaction and block", async () => {
    const address = await node.walletRpc<string>("getnewaddress");
    const webhook = await createWebhook("BTC", address);
    await node.mine(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const txid = await node.fundAddress(address, "1.23456789");
    const [blockHash] = await node.mine(1);
    expect(await onlyNotification(webhook)).toMatchObject({
      type: "transfer",
      webhook_id: webhook.id,
      coin: "BTC",
      currency: "BTC",
      to: address,
      watched_address: address,
      amount: "1.23456789",
      raw_amount: "123456789",
      txid,
      block: { hash: blockHash },
    });
  });

  it("on Ethereum, registered in checksummed form, reaches the receiver once with the exact wei amount", async () => {
    const [sender, recipient] = [hardhat.accounts[1]!.address, hardhat.accounts[7]!.address];
    const webhook = await createWebhook("ETH", recipient);
    await hardhat.rpc("evm_mine");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const txid = await hardhat.rpc<string>("eth_sendTransaction", [{ from: sender, to: recipient, value: "0x1bc16d674ec80001" }]); // 2 ETH + 1 wei
    expect(await onlyNotification(webhook)).toMatchObject({
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
  });
});
