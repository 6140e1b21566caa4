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
 * webhook's list is replaced by a PUT and another gains `xpub_ids`.
 *
 * At the end, per payment to a watched address: the subscriber's last event (highest generation,
 * "reverted" after "transfer") says what the final best chain says; no "reverted" names a block that
 * never left the best chain; every payment to an address watched at or before its block's time was
 * notified; copies only as repeats of one event id. Replay a run with HOSTILE_NODE_SEED=<n>.
 */
import {
  createTestDatabase,
  deployValueRouter,
  startAnvil,
  startLitecoindRegtest,
  startNodeFaultProxy,
  startPrivateNats,
  type TestDatabase,
} from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// By path, as the end-to-end drill does: the simulator's test helper (TronWeb signing as a dev account).
import { useDevnode } from "@chaingate/tron-devnode/testing";
import { startNotificationStack } from "./notification-stack.ts";
import { NODE_TIMEOUT_MS, SEED, startDrill, type HostilePeers } from "./hostile-node/hostile-drill.ts";
import { setUpWebhooks } from "./hostile-node/drill-webhooks.ts";
import { drawSchedule, runRounds } from "./hostile-node/drill-schedule.ts";
import { registryHolds, settledVerdict, writeReport } from "./hostile-node/verdict-report.ts";

const tron = useDevnode();
let database: TestDatabase;
let peers: HostilePeers;
/** How long the peers and the services took to start (the drill's budget is 3 minutes in all). */
let setupMs: number;

beforeAll(async () => {
  const setupStarted = Date.now();
  const [testDatabase, nats, node, anvil] = await Promise.all([
    createTestDatabase(),
    startPrivateNats(),
    startLitecoindRegtest(),
    startAnvil(),
  ]);
  database = testDatabase;
  peers = { nats, node, anvil, tron } as HostilePeers;
  await node.mine(101);
  peers.router = await deployValueRouter(anvil, 3);
  const [btc, eth, trx] = await Promise.all([
    startNodeFaultProxy({ chain: "bitcoin", upstream: node.rpcUrl, seed: SEED + 10 }),
    startNodeFaultProxy({ chain: "ethereum", upstream: anvil.url, seed: SEED + 11 }),
    startNodeFaultProxy({ chain: "tron", upstream: tron.devnode.url, seed: SEED + 12 }),
  ]);
  peers.proxies = { BTC: btc, ETH: eth, TRX: trx };
  peers.product = await startNotificationStack({
    databaseUrl: database.connectionString,
    natsUrl: nats.url,
    scannerReplicas: 2,
    xpubNetwork: "litecoin-regtest",
    scannerEnv: {
      BTC_RPC_URL: btc.url,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      ETH_RPC_URL: eth.url,
      TRON_NODE_URL: trx.url,
      NODE_TIMEOUT_MS: String(NODE_TIMEOUT_MS),
      SCANNER_POLL_INTERVAL_MS: "200",
      SCANNER_LEASE_POLL_MS: "200",
    },
    deliveryEnv: { DELIVERY_RETRY_SCALE: "0.001" },
  });
  setupMs = Date.now() - setupStarted;
}, 180_000);
afterAll(async () => {
  await peers?.product?.stop();
  await Promise.all(Object.values(peers?.proxies ?? {}).map((proxy) => proxy.stop()));
  await Promise.all([peers?.nats?.destroy(), peers?.node?.stop(), peers?.anvil?.stop()]);
  await database?.drop();
});

describe("the hostile node: lagging, alternating, incomplete and failing nodes, A→B→A reorgs, lease handovers, a NATS pause", () => {
  it("every watched payment's last word is the final chain's, no block that stayed is reverted, nothing owed is missed, copies repeat one event id", async () => {
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
  }, 240_000);
});
