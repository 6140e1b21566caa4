/**
 * A rolling restart under payment load, as a Kubernetes rollout does it: payments flow on
 * litecoind regtest and Anvil while every service of the notification path is stopped with
 * SIGTERM and started again, one replica at a time (delivery ×2, scanner ×2, xpub, gateway). The
 * receiver answers after up to 2 s, so deliveries are in flight at each SIGTERM. At the end
 * every expected notification was received exactly once (0 lost, 0 duplicated), and no process
 * needed SIGKILL: each drained within its grace period.
 */
import { seededRandom } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { RECEIVER_PATH, type CreatedWebhook, type NotificationStack } from "./notification-stack.ts";
import { paidOutputs } from "./paid-outputs.ts";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

const SEED = 20_261_127;
/** Restarted in this order, as a rollout takes one Deployment after the other. */
const ROLLOUT = ["delivery-1", "delivery-2", "scanner", "scanner-2", "xpub", "gateway"];
/** Between two restarts: payments and deliveries meet every replica set before and after its turn. */
const BETWEEN_RESTARTS_MS = 3_000;
const BLOCK_INTERVAL_MS = 1_000;
/** Slow enough that every SIGTERM of a delivery replica meets deliveries in flight. */
const MAX_ANSWER_DELAY_MS = 2_000;
const FINAL_WAIT_MS = 60_000;
/** After the last notification: long enough for a late duplicate to show. */
const QUIET_MS = 3_000;

const paymentRandom = seededRandom(SEED);
const receiverRandom = seededRandom(SEED + 1);
/** Deliveries the receiver has taken and not answered yet. */
let inFlight = 0;

drillTest.scoped({
  drillSettings: {
    deliveryReplicas: 2,
    scannerReplicas: 2,
    xpubNetwork: "litecoin-regtest",
    scannerEnv: { SCANNER_POLL_INTERVAL_MS: "200", SCANNER_LEASE_POLL_MS: "200" },
  },
});
/** The product over litecoind and Anvil, its receiver answering after up to MAX_ANSWER_DELAY_MS. */
const it = drillTest.extend<{ rolloutProduct: NotificationStack }>({
  rolloutProduct: [
    async ({ bitcoinEthereumProduct: product }, use) => {
      product.receiver.on(RECEIVER_PATH, (_request, response) => {
        inFlight++;
        setTimeout(
          () => {
            inFlight--;
            response.writeHead(200).end("ok");
          },
          receiverRandom.between(0, MAX_ANSWER_DELAY_MS),
        );
      });
      await use(product);
    },
    { scope: "file" },
  ],
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keyOf = (webhookId: number, txid: string, position: number | null) => `${webhookId}:${txid}:${position ?? "-"}`;

describe("a rolling restart of every service on the notification path, under payment load", () => {
  it(
    "loses and duplicates no notification, and every process drains within its grace period",
    async ({ rolloutProduct: product, matureLitecoind: node, anvil }) => {
      const btcAddresses = await Promise.all(Array.from({ length: 2 }, () => node.walletRpc<string>("getnewaddress")));
      const ethRecipient = anvil.accounts[6]!.address;
      const webhooks: Record<string, CreatedWebhook> = {
        btc: await product.createWebhook("BTC", btcAddresses),
        eth: await product.createWebhook("ETH", [ethRecipient]),
      };
      const expected = new Set<string>();

      let paying = true;
      const payments = (async () => {
        while (paying) {
          const roundStart = Date.now();
          const address = paymentRandom.pick(btcAddresses);
          const txid = await node.walletRpc<string>("sendtoaddress", [address, (paymentRandom.between(10_000, 999_999) / 1e8).toFixed(8)]);
          const outputs = await paidOutputs(node, txid);
          expected.add(keyOf(webhooks.btc!.id, txid, outputs.get(address)!));
          await node.mine(1);
          const ethTx = await anvil.rpc<string>("eth_sendTransaction", [
            {
              from: anvil.accounts[3]!.address,
              to: ethRecipient,
              value: `0x${(BigInt(paymentRandom.between(1, 1_000_000)) * 10n ** 9n).toString(16)}`,
            },
          ]);
          expected.add(keyOf(webhooks.eth!.id, ethTx, null));
          await sleep(BLOCK_INTERVAL_MS - (Date.now() - roundStart));
        }
      })();

      /** Per restart: deliveries in flight at SIGTERM, SIGTERM to exit (the drain), to the new process answering, and how the old one ended. */
      const restarts: { name: string; inFlight: number; drainMs: number; tookMs: number; exit: string }[] = [];
      for (const name of ROLLOUT) {
        await sleep(BETWEEN_RESTARTS_MS);
        const old = product.stack.processes[name]!.process;
        const begun = Date.now();
        const inFlightAtSigterm = inFlight;
        const exitedAt = new Promise<number>((resolve) => old.once("exit", () => resolve(Date.now())));
        await product.stack.restart(name, "SIGTERM");
        restarts.push({
          name,
          inFlight: inFlightAtSigterm,
          drainMs: (await exitedAt) - begun,
          tookMs: Date.now() - begun,
          exit: String(old.exitCode ?? old.signalCode),
        });
      }
      await sleep(BETWEEN_RESTARTS_MS);
      paying = false;
      await payments;

      const received = () => Object.values(webhooks).flatMap((webhook) => product.notifications(webhook));
      const missing = () => {
        const seen = new Set(received().map((n) => keyOf(n.payload.webhook_id, n.payload.txid, n.payload.position)));
        return [...expected].filter((key) => !seen.has(key));
      };
      await expect.poll(missing, { timeout: FINAL_WAIT_MS, interval: 500 }).toEqual([]);
      await sleep(QUIET_MS);

      const copies = new Map<string, number>();
      for (const { payload } of received()) {
        const key = keyOf(payload.webhook_id, payload.txid, payload.position);
        copies.set(key, (copies.get(key) ?? 0) + 1);
      }
      const duplicated = [...copies].filter(([, count]) => count > 1);
      process.stdout.write(
        `rolling restart: ${JSON.stringify({ expected: expected.size, received: received().length, duplicated: duplicated.length, restarts })}\n`,
      );
      // The drill meant something: deliveries were in flight when a delivery replica got SIGTERM.
      expect(
        restarts.filter((restart) => restart.name.startsWith("delivery")).reduce((sum, restart) => sum + restart.inFlight, 0),
      ).toBeGreaterThan(0);
      // Each old process left on its own after SIGTERM (exit code 0), none was SIGKILLed at the grace period's end.
      expect(restarts.filter((restart) => restart.exit !== "0")).toEqual([]);
      expect(product.stack.exited(), product.stack.exitReport()).toEqual([]);
      expect([...copies.keys()].filter((key) => !expected.has(key))).toEqual([]);
      expect(duplicated).toEqual([]);
    },
    240_000 + PRODUCT_START_MS,
  );
});
