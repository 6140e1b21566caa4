/**
 * Pending events (issue #29) as a client meets them, every service a real process over litecoind
 * regtest: a webhook created through the gateway with `pending: true` gets a signed, numbered
 * `pending` the moment a payment is broadcast and its `transfer` once it is mined; a webhook
 * without it gets the transfer only; a TRX webhook cannot ask for it.
 */
import { notificationSchema } from "@chaingate/contracts";
import { expect } from "vitest";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

drillTest.scoped({ drillSettings: { scannerEnv: { SCANNER_POLL_INTERVAL_MS: "200", MEMPOOL_POLL_INTERVAL_MS: "200" } } });
const it = drillTest;

it(
  "a payment is pending (signed, numbered) before its block and a transfer after it; only webhooks that asked get the pending",
  async ({ bitcoinProduct: product, matureLitecoind: node }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    const asked = await product.createWebhook("BTC", [address], { pending: true });
    const plain = await product.createWebhook("BTC", [address]);
    expect([asked.pending, plain.pending]).toEqual([true, false]);
    const refused = await product.api("POST", "/api/v1/webhooks", {
      coin: "TRX",
      webhook_url: "https://example.com/hook",
      addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
      pending: true,
    });
    expect(refused.status).toBe(422);

    const txid = await node.walletRpc<string>("sendtoaddress", [address, "0.3"]);
    await expect.poll(() => product.notifications(asked).length, { timeout: 20_000, interval: 100 }).toBe(1);
    const [pending] = product.notifications(asked);
    expect(pending!.signed).toBe(true);
    expect(notificationSchema.parse(pending!.payload)).toMatchObject({ type: "pending", txid, amount: "0.3", sequence: 1 });
    expect(pending!.request.headers["x-service-sequence"]).toBe("1");
    expect(product.notifications(plain)).toEqual([]);

    await node.mine(1);
    await expect.poll(() => product.notifications(asked).length, { timeout: 20_000, interval: 100 }).toBe(2);
    await expect.poll(() => product.notifications(plain).length, { timeout: 20_000, interval: 100 }).toBe(1);
    expect(product.notifications(asked).map((n) => [n.payload.type, n.payload.sequence])).toEqual([
      ["pending", 1],
      ["transfer", 2],
    ]);
    expect(product.notifications(plain).map((n) => n.payload.type)).toEqual(["transfer"]);
  },
  60_000 + PRODUCT_START_MS,
);
