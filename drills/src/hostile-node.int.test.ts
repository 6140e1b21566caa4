/**
 * The hostile node (issue 16): payments flow on litecoind regtest, Anvil and the Tron simulator
 * while the real scanner (two replicas competing for each chain's lease) reads them through fault
 * proxies, the real delivery service notifies a receiver, and webhooks and addresses are managed
 * through the gateway (the xpub service issues addresses the webhooks watch automatically). On a
 * seeded schedule: the proxies serve a lagging tip, a load balancer's alternating views, null
 * receipts, failed call traces (a fifth of them throughout), `[]` transaction infos, timeouts and dropped connections; about a
 * third of the Ethereum and Tron payments reach their address through a contract (an internal
 * transfer: a ValueRouter on Anvil, the simulator's forwarder on Tron); each chain has an A→B→A
 * reorganisation (Tron: blocks replaced, their transactions mined again later or dropped); the lease
 * holder is SIGKILLed; NATS stops for a few seconds while addresses are issued, added and paid; a
 * webhook's list is replaced by a PUT and another gains `xpub_ids`. The Bitcoin webhooks have `pending`
 * on: payments wait in the mempool before their block, four are replaced by fee while pending, and
 * litecoind restarts once with its mempool emptied (issue #29).
 *
 * At the end, per payment to a watched address: the subscriber's last event (highest generation,
 * "reverted" after "transfer") says what the final best chain says; no "reverted" names a block that
 * never left the best chain; every payment to an address watched at or before its block's time was
 * notified; copies only as repeats of one event id. Replay a run with HOSTILE_NODE_SEED=<n>.
 */
import { deployValueRouter, startNodeFaultProxy } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { NODE_TIMEOUT_MS, SEED, startDrill, type HostilePeers } from "./hostile-node/hostile-drill.ts";
import { setUpWebhooks } from "./hostile-node/drill-webhooks.ts";
import { drawSchedule, runRounds } from "./hostile-node/drill-schedule.ts";
import { registryHolds, settledVerdict, writeReport } from "./hostile-node/verdict-report.ts";
import { drillTest, PRODUCT_START_MS, useNotificationStack } from "./testing/drill-fixtures.ts";

drillTest.scoped({
  drillSettings: {
    scannerReplicas: 2,
    xpubNetwork: "litecoin-regtest",
    scannerEnv: {
      NODE_TIMEOUT_MS: String(NODE_TIMEOUT_MS),
      SCANNER_POLL_INTERVAL_MS: "200",
      SCANNER_LEASE_POLL_MS: "200",
      MEMPOOL_POLL_INTERVAL_MS: "200",
    },
    deliveryEnv: { DELIVERY_RETRY_SCALE: "0.001" },
  },
});
/**
 * The drill's peers: the file's private NATS, mature litecoind, Anvil (with a ValueRouter) and Tron
 * simulator, a fault proxy in front of each node, and the product reading the nodes through the
 * proxies; `setupMs` is how long the proxies and the services took to start.
 */
const it = drillTest.extend<{ hostilePeers: HostilePeers & { setupMs: number } }>({
  hostilePeers: [
    async ({ database, privateNats: nats, matureLitecoind: node, anvil, tronAccounts: tron, drillSettings }, use) => {
      const setupStarted = Date.now();
      const router = await deployValueRouter(anvil, 3);
      const [btc, eth, trx] = await Promise.all([
        startNodeFaultProxy({ chain: "bitcoin", upstream: node.rpcUrl, seed: SEED + 10 }),
        startNodeFaultProxy({ chain: "ethereum", upstream: anvil.url, seed: SEED + 11 }),
        startNodeFaultProxy({ chain: "tron", upstream: tron.devnode.url, seed: SEED + 12 }),
      ]);
      const proxies = { BTC: btc, ETH: eth, TRX: trx };
      const settings = {
        ...drillSettings,
        scannerEnv: {
          BTC_RPC_URL: btc.url,
          BTC_RPC_USER: node.rpcUser,
          BTC_RPC_PASSWORD: node.rpcPassword,
          ETH_RPC_URL: eth.url,
          TRON_NODE_URL: trx.url,
          ...drillSettings.scannerEnv,
        },
      };
      try {
        await useNotificationStack(database, { natsUrl: nats.url }, settings, (product) =>
          use({ nats, node, anvil, tron, router, proxies, product, setupMs: Date.now() - setupStarted }),
        );
      } finally {
        await Promise.all(Object.values(proxies).map((proxy) => proxy.stop()));
      }
    },
    { scope: "file" },
  ],
});

describe("the hostile node: lagging, alternating, incomplete and failing nodes, A→B→A reorgs, lease handovers, a NATS pause", () => {
  it(
    "every watched payment's last word is the final chain's, no block that stayed is reverted, nothing owed is missed, copies repeat one event id",
    async ({ hostilePeers }) => {
      const { setupMs, ...peers } = hostilePeers;
      const drill = startDrill(peers);
      const webhooks = await setUpWebhooks(drill);
      await runRounds(drill, webhooks, drawSchedule());
      const paymentsEndedMs = Date.now() - drill.started;

      const verdict = await settledVerdict(drill, webhooks);
      const holds = await registryHolds(drill, webhooks);
      const { product } = drill;
      const unsigned = Object.values(webhooks.all).flatMap((webhook) => product.notifications(webhook).filter((n) => !n.signed));
      writeReport(drill, verdict, { setupMs, paymentsEndedMs }, holds);

      expect(product.stack.exited(), product.stack.exitReport()).toEqual([]);
      expect(unsigned).toEqual([]);
      expect(verdict.unexpected).toEqual([]);
      expect(verdict.duplicatesUnderNewIds).toEqual([]);
      expect(verdict.falseReverts).toEqual([]);
      expect(verdict.missed).toEqual([]);
      expect(verdict.falseFinalWordsPerBlock).toEqual([]);
      expect(verdict.falseFinalWords).toEqual([]);
      // The mempool churned (pending, replaced by fee, a restart without it) and every transfer's events came in order.
      expect(verdict.mempoolEvents.pending).toBeGreaterThan(0);
      expect(verdict.pendingOutOfOrder).toEqual([]);
    },
    240_000 + PRODUCT_START_MS,
  );
});
