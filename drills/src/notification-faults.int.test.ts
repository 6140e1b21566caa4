/**
 * Faults on the notification path. Payments flow for a while on litecoind regtest (single and
 * two-output transactions, blocks about every second) and Anvil; meanwhile the scanner and the
 * two delivery replicas are each SIGKILLed at seeded random moments and started again, the
 * private NATS server restarts once, and the receiver turns away a seeded share of deliveries
 * (503). At the end every expected notification — one per watched output, known from the
 * payments made — was accepted at least once, signed; none was unexpected; every copy of a
 * notification carries the same event id. The receiver answers after up to 400 ms, so kills cut
 * deliveries in flight. The duplicate count is reported.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { seededRandom, type PrivateNats } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { ReceivedRequest } from "@chaingate/delivery/testing";
import { RECEIVER_PATH, type CreatedWebhook, type NotificationStack } from "./notification-stack.ts";
import { paidOutputs } from "./paid-outputs.ts";
import { drillTest, PRODUCT_START_MS, useNotificationStack } from "./testing/drill-fixtures.ts";

const REPORT = fileURLToPath(new URL("../../.tmp/drills/notification-faults.json", import.meta.url));
/** Replay another run with FAULT_DRILL_SEED=<n>; the default seed is what CI runs. */
const SEED = Number(process.env.FAULT_DRILL_SEED ?? 20_261_124);
/** How long payments flow; every fault happens inside this window. */
const PAYMENT_WINDOW_MS = 40_000;
const BLOCK_INTERVAL_MS = 1_000;
/** Faults keep clear of the window's edges so each one meets traffic before and after it. */
const FAULT_MARGIN_MS = 3_000;
const SCANNER_KILLS = 3;
const DELIVERY_KILLS = 4;
/** Share of deliveries the receiver answers 503 (retried on the compressed schedule). */
const REJECT_RATE = 0.15;
const MAX_ANSWER_DELAY_MS = 400;
/** Generous: a job claimed by a killed replica is due again after its timeout plus the lease margin. */
const FINAL_WAIT_MS = 60_000;
const QUIET_MS = 2_000;

// One generator per concern, so the fault schedule and the payments repeat exactly for a seed
// (the receiver's draws follow the order requests arrive in).
const faultRandom = seededRandom(SEED);
const paymentRandom = seededRandom(SEED + 1);
const receiverRandom = seededRandom(SEED + 2);
const rejected = new WeakSet<ReceivedRequest>();

drillTest.scoped({
  drillSettings: {
    deliveryReplicas: 2,
    scannerEnv: { SCANNER_POLL_INTERVAL_MS: "200", SCANNER_LEASE_POLL_MS: "200" },
    // Compressed so the drill stays short: retries (5 s → 5 ms, 5 min → 300 ms, …) and the time
    // after which a job claimed by a killed replica is due again (3 s + 1 s instead of 15 s + 15 s).
    deliveryEnv: { DELIVERY_RETRY_SCALE: "0.001", DELIVERY_TIMEOUT_MS: "3000", DELIVERY_LEASE_MARGIN_MS: "1000" },
  },
});
/**
 * The product over litecoind and Anvil on the file's private NATS (restarted by the drill), its
 * receiver turning away a seeded share of deliveries after a seeded delay.
 */
const it = drillTest.extend<{ faultsProduct: NotificationStack }>({
  faultsProduct: [
    async ({ database, privateNats, matureLitecoind, anvil, drillSettings }, use) => {
      const peers = { natsUrl: privateNats.url, bitcoin: matureLitecoind, ethereumUrl: anvil.url };
      await useNotificationStack(database, peers, drillSettings, async (product) => {
        product.receiver.on(RECEIVER_PATH, (request, response) => {
          const reject = receiverRandom.next() < REJECT_RATE;
          if (reject) rejected.add(request);
          // A slow subscriber keeps deliveries in flight, so a kill can cut one off after the receiver
          // took it: the replica that finds the job again sends it once more, with the same event id.
          setTimeout(
            () => (reject ? response.writeHead(503).end() : response.writeHead(200).end("ok")),
            receiverRandom.between(0, MAX_ANSWER_DELAY_MS),
          );
        });
        await use(product);
      });
    },
    { scope: "file" },
  ],
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** One notification's identity: webhook, transaction, output index (null for an account transfer). */
const keyOf = (webhookId: number, txid: string, position: number | null) => `${webhookId}:${txid}:${position ?? "-"}`;
/** `units` base units as the exact decimal text a notification carries ("0.0123", "2"). */
function decimal(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction ? `${units / scale}.${fraction}` : `${units / scale}`;
}

/**
 * Draws the faults (scanner and delivery kills, a NATS restart) over the payment window from the
 * seed and performs each at its time after `started`; `done` resolves after the last.
 */
function performFaults(
  started: number,
  product: NotificationStack,
  nats: PrivateNats,
): {
  schedule: { name: string; at: number }[];
  performed: { name: string; atMs: number; tookMs: number }[];
  done: Promise<void>;
} {
  const schedule = [
    ...Array.from({ length: SCANNER_KILLS }, () => ({
      name: "scanner",
      at: faultRandom.between(FAULT_MARGIN_MS, PAYMENT_WINDOW_MS - FAULT_MARGIN_MS),
    })),
    ...Array.from({ length: DELIVERY_KILLS }, (_, i) => ({
      name: `delivery-${(i % 2) + 1}`,
      at: faultRandom.between(FAULT_MARGIN_MS, PAYMENT_WINDOW_MS - FAULT_MARGIN_MS),
    })),
    // Mid-run: payments and faults before and after it.
    { name: "nats", at: faultRandom.between(PAYMENT_WINDOW_MS / 3, (2 * PAYMENT_WINDOW_MS) / 3) },
  ].sort((a, b) => a.at - b.at);
  const performed: { name: string; atMs: number; tookMs: number }[] = [];
  const faults = (async () => {
    for (const fault of schedule) {
      await sleep(fault.at - (Date.now() - started));
      const begun = Date.now();
      if (fault.name === "nats") await nats.restart();
      else await product.stack.restart(fault.name, "SIGKILL");
      performed.push({ name: fault.name, atMs: begun - started, tookMs: Date.now() - begun });
    }
  })();
  return { schedule, performed, done: faults };
}

describe("the notification path under faults (scanner and delivery ×2 killed at random, NATS restarted)", () => {
  it(
    "every expected notification is accepted at least once, none is unexpected, and copies carry the same event id",
    async ({ faultsProduct: product, privateNats: nats, matureLitecoind: node, anvil }) => {
      const btcAddresses = await Promise.all(Array.from({ length: 3 }, () => node.walletRpc<string>("getnewaddress")));
      const [first, second, third] = btcAddresses as [string, string, string];
      const ethRecipient = anvil.accounts[5]!.address;
      const webhooks: Record<string, CreatedWebhook> = {
        btcPair: await product.createWebhook("BTC", [first, second]),
        btcSingle: await product.createWebhook("BTC", [third]),
        eth: await product.createWebhook("ETH", [ethRecipient]),
      };
      const webhookOf = (address: string) => (address === third ? webhooks.btcSingle! : webhooks.btcPair!);
      /** Expected notification key → its amount. */
      const expected = new Map<string, string>();
      /** Expected notification key → when its block was mined (ms since the start). */
      const minedAt = new Map<string, number>();

      const started = Date.now();
      const { schedule, performed, done: faults } = performFaults(started, product, nats);

      let round = 0;
      while (Date.now() - started < PAYMENT_WINDOW_MS) {
        const roundStart = Date.now();
        const payments: Record<string, string> = {};
        for (const address of paymentRandom.next() < 0.5
          ? [paymentRandom.pick(btcAddresses)]
          : [first, paymentRandom.pick([second, third])]) {
          payments[address] = decimal(BigInt(paymentRandom.between(10_000, 9_999_999)), 8);
        }
        const txid = await node.walletRpc<string>("sendmany", ["", payments]);
        const outputs = await paidOutputs(node, txid);
        for (const [address, amount] of Object.entries(payments))
          expected.set(keyOf(webhookOf(address).id, txid, outputs.get(address)!), amount);
        await node.mine(1);
        for (const key of expected.keys()) if (!minedAt.has(key)) minedAt.set(key, Date.now() - started);
        if (round++ % 2 === 0) {
          const wei = BigInt(paymentRandom.between(1, 1_000_000)) * 1_000_000_000_007n;
          const ethTx = await anvil.rpc<string>("eth_sendTransaction", [
            { from: anvil.accounts[2]!.address, to: ethRecipient, value: `0x${wei.toString(16)}` },
          ]);
          expected.set(keyOf(webhooks.eth!.id, ethTx, null), decimal(wei, 18));
          minedAt.set(keyOf(webhooks.eth!.id, ethTx, null), Date.now() - started); // Anvil mines each transaction at once
        }
        await sleep(BLOCK_INTERVAL_MS - (Date.now() - roundStart));
      }
      await faults;
      const paymentsEnded = Date.now();

      const all = () => Object.values(webhooks).flatMap((webhook) => product.notifications(webhook));
      const acceptedKeys = () =>
        new Set(
          all()
            .filter((n) => !rejected.has(n.request))
            .map((n) => keyOf(n.payload.webhook_id, n.payload.txid, n.payload.position)),
        );
      const missing = () => [...expected.keys()].filter((key) => !acceptedKeys().has(key));
      await expect.poll(missing, { timeout: FINAL_WAIT_MS, interval: 500 }).toEqual([]);
      const allAcceptedAfterMs = Date.now() - paymentsEnded;
      await sleep(QUIET_MS);

      const received = all();
      const accepted = received.filter((n) => !rejected.has(n.request));
      const eventIds = new Map<string, Set<string>>();
      for (const { payload } of received) {
        const key = keyOf(payload.webhook_id, payload.txid, payload.position);
        eventIds.set(key, (eventIds.get(key) ?? new Set()).add(payload.event_id));
      }
      // Mined → first accepted, per notification: where the faults cost time.
      const firstAccepted = new Map<string, number>();
      for (const { payload, request } of accepted) {
        const key = keyOf(payload.webhook_id, payload.txid, payload.position);
        if (!firstAccepted.has(key)) firstAccepted.set(key, request.at - started - minedAt.get(key)!);
      }
      const slowest = [...firstAccepted]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([key, ms]) => ({ key, minedAtMs: minedAt.get(key), acceptedAfterMs: ms }));
      const report = {
        seed: SEED,
        blocks: round,
        expectedNotifications: expected.size,
        requestsReceived: received.length,
        rejectedWith503: received.length - accepted.length,
        acceptedDuplicates: accepted.length - acceptedKeys().size,
        allAcceptedAfterPaymentsEndedMs: allAcceptedAfterMs,
        medianMinedToAcceptedMs: [...firstAccepted.values()].sort((a, b) => a - b)[Math.floor(firstAccepted.size / 2)],
        slowest,
        faults: performed,
      };
      mkdirSync(new URL(".", `file://${REPORT}`), { recursive: true });
      writeFileSync(REPORT, JSON.stringify(report, null, 2));
      process.stdout.write(`notification faults: ${JSON.stringify(report)}\n`);

      expect(performed.map((f) => f.name).sort()).toEqual(schedule.map((f) => f.name).sort());
      expect(product.stack.exited(), product.stack.exitReport()).toEqual([]);
      expect([...eventIds.keys()].filter((key) => !expected.has(key))).toEqual([]);
      expect(received.filter((n) => !n.signed)).toEqual([]);
      expect([...eventIds].filter(([, ids]) => ids.size !== 1)).toEqual([]);
      for (const { payload } of received) {
        expect({ key: keyOf(payload.webhook_id, payload.txid, payload.position), amount: payload.amount, type: payload.type }).toEqual({
          key: keyOf(payload.webhook_id, payload.txid, payload.position),
          amount: expected.get(keyOf(payload.webhook_id, payload.txid, payload.position)),
          type: "transfer",
        });
      }
    },
    180_000 + PRODUCT_START_MS,
  );
});
