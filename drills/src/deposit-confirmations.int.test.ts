/**
 * N confirmations end to end, every service a real process: a webhook registered through the
 * gateway with `confirmations: 3` is notified of a regtest payment only once the payment's block
 * is 3 deep — nothing at depth 1 and 2 — while a default webhook paid in the same block is
 * notified at depth 1.
 *
 * Needs the registry's `confirmations` field (POST /api/v1/webhooks); until the branch adding it
 * is merged, the registry drops the field and this file fails at its first assertion.
 */
import type { LitecoindRegtest } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { NotificationStack } from "./notification-stack.ts";
import { paidOutputs } from "./paid-outputs.ts";
import { processedBlocks, waitUntilProcessed } from "./scanner-watch.ts";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

const CONFIRMATIONS = 3;
/** Longer than the processed block → receiver path takes (tens of ms here): a notification due now would have come. */
const QUIET_MS = 2_000;

drillTest.scoped({ drillSettings: { scannerEnv: { SCANNER_POLL_INTERVAL_MS: "200" } } });
const it = drillTest;

/** Mines one block and resolves once the scanner processed it and the delivery had time to act on it; its hash. */
async function mineProcessed(product: NotificationStack, node: LitecoindRegtest): Promise<string> {
  const before = await processedBlocks(product.scannerUrl, "BTC");
  const [hash] = await node.mine(1);
  await waitUntilProcessed(product.scannerUrl, "BTC", before);
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  return hash!;
}

describe("a webhook asking for 3 confirmations", () => {
  it(
    "is notified when the payment's block is 3 deep, with confirmations: 3, and not before; a default webhook at depth 1",
    {
      timeout: 60_000 + PRODUCT_START_MS,
    },
    async ({ bitcoinProduct: product, matureLitecoind: node }) => {
      const [deep, shallow] = [await node.walletRpc<string>("getnewaddress"), await node.walletRpc<string>("getnewaddress")];
      const webhook = await product.createWebhook("BTC", [deep], { confirmations: CONFIRMATIONS });
      expect(webhook.confirmations, "the registry's answer carries confirmations (is the registry change merged?)").toBe(CONFIRMATIONS);
      const control = await product.createWebhook("BTC", [shallow]);
      const txid = await node.walletRpc<string>("sendmany", ["", { [deep]: "0.7", [shallow]: "0.5" }]);
      const position = (await paidOutputs(node, txid)).get(deep);

      const paymentBlock = await mineProcessed(product, node);
      expect(product.notifications(control).map((n) => n.payload)).toMatchObject([
        { txid, amount: "0.5", confirmations: 1, block: { hash: paymentBlock } },
      ]);
      expect(product.notifications(webhook), "at depth 1").toEqual([]);
      await mineProcessed(product, node);
      expect(product.notifications(webhook), "at depth 2").toEqual([]);
      await node.mine(1);

      await expect.poll(() => product.notifications(webhook).length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      const received = product.notifications(webhook);
      expect(received.map((n) => n.signed)).toEqual([true]);
      expect(received[0]!.payload).toMatchObject({
        type: "transfer",
        txid,
        position,
        to: deep,
        amount: "0.7",
        confirmations: CONFIRMATIONS,
        block: { hash: paymentBlock },
      });
    },
  );
});
