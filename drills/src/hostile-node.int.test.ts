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
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createTestDatabase,
  deployValueRouter,
  NO_FAULTS,
  seededRandom,
  startAnvil,
  startLitecoindRegtest,
  startNodeFaultProxy,
  startPrivateNats,
  type AnvilNode,
  type LitecoindRegtest,
  type NodeFaultProxy,
  type NodeFaults,
  type PrivateNats,
  type TestDatabase,
  type ValueRouter,
} from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// By path, as the end-to-end drill does: the simulator's test helper (TronWeb signing as a dev account).
import { useDevnode } from "@chaingate/tron-devnode/testing";
import { judge, type TransferNotification, type Verdict, type WatchedPayment } from "./last-word.ts";
import { startNotificationStack, type CreatedWebhook, type NotificationStack } from "./notification-stack.ts";
import { paidOutputs } from "./paid-outputs.ts";
import type { ScannedCoin } from "./scanner-watch.ts";

const REPORT = fileURLToPath(new URL("../../.tmp/drills/hostile-node.json", import.meta.url));
const SEED = Number(process.env.HOSTILE_NODE_SEED ?? 20_261_125);
/** BIP84 account 0 of the "abandon ... about" mnemonic. */
const ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";

/** One round: a payment and a block on each chain. Scheduled events happen between rounds. */
const ROUNDS = 24;
const ROUND_MS = 1_200;
/** Rounds a proxy keeps one fault profile. */
const PHASE_ROUNDS = 4;
/** Rounds NATS stays down. */
const NATS_PAUSE_ROUNDS = 3;
const SCANNER_KILLS = 3;
/** The scanner's node timeout; a held request outlasts it. */
const NODE_TIMEOUT_MS = 1_500;
/** How long the drill lets the scanner see branch B before bringing A back (not needed for correctness). */
const SEE_BRANCH_MS = 8_000;
/** Generous: the chains settled, everything owed should arrive well within this. */
const SETTLE_TIMEOUT_MS = 30_000;
const QUIET_MS = 2_000;

/** What a proxy does wrong during one phase. */
const FAULT_PROFILES: Record<string, Partial<NodeFaults>> = {
  calm: {},
  lagging: { lag: 2 },
  loadBalanced: { alternate: { probability: 0.5, lag: 1 } },
  incomplete: { nullReceipts: 0.4, failedTraces: 0.4, emptyTransactionInfo: 0.4 },
  timeouts: { timeout: 0.1, holdMs: NODE_TIMEOUT_MS + 1_000 },
  drops: { drop: 0.15 },
};

/** Under every profile: the Ethereum node fails a fifth of its call traces (a tracer timing out now and then). */
const BASELINE_FAULTS: Record<ScannedCoin, Partial<NodeFaults>> = { BTC: {}, ETH: { failedTraces: 0.2 }, TRX: {} };

// One generator per concern: the schedule, the payments and each proxy repeat for a seed.
const scheduleRandom = seededRandom(SEED);
const paymentRandom = seededRandom(SEED + 1);
const tron = useDevnode();
let database: TestDatabase;
let nats: PrivateNats;
let node: LitecoindRegtest;
let anvil: AnvilNode;
/** Pays Ethereum addresses from inside a contract (internal transfers). */
let router: ValueRouter;
let proxies: Record<ScannedCoin, NodeFaultProxy>;
let product: NotificationStack;
/** How long the peers and the services took to start (the drill's budget is 3 minutes in all). */
let setupMs: number;

beforeAll(async () => {
  const setupStarted = Date.now();
  [database, nats, node, anvil] = await Promise.all([createTestDatabase(), startPrivateNats(), startLitecoindRegtest(), startAnvil()]);
  await node.mine(101);
  router = await deployValueRouter(anvil, 3);
  const [btc, eth, trx] = await Promise.all([
    startNodeFaultProxy({ chain: "bitcoin", upstream: node.rpcUrl, seed: SEED + 10 }),
    startNodeFaultProxy({ chain: "ethereum", upstream: anvil.url, seed: SEED + 11 }),
    startNodeFaultProxy({ chain: "tron", upstream: tron.devnode.url, seed: SEED + 12 }),
  ]);
  proxies = { BTC: btc, ETH: eth, TRX: trx };
  product = await startNotificationStack({
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
  await product?.stop();
  await Promise.all(Object.values(proxies ?? {}).map((proxy) => proxy.stop()));
  await Promise.all([nats?.destroy(), node?.stop(), anvil?.stop()]);
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watched address: by which webhook, since when (ms, the registry's answer), and how it came to be watched. */
interface Watch {
  webhookId: number;
  since: number;
  origin: string;
}

/**
 * A payment the drill made; `position` is the output index (BTC), null for a native account
 * transfer, or the internal transfer's position (its call frame's index, or its entry's index in
 * Tron's internal_transactions).
 */
interface Payment {
  coin: ScannedCoin;
  txid: string;
  address: string;
  position: number | null;
  /** When the drill sent it (ms since the epoch). */
  sentAt: number;
}

/** Where a transaction is in the final best chain, read from the node itself. */
interface FinalPlace {
  block: string;
  timeMs: number;
}

const SCANNERS = ["scanner", "scanner-2"];

/** A scanner replica's metrics; empty while it is being restarted. */
async function scannerMetrics(name: string): Promise<string> {
  try {
    return await (await fetch(`${product.stack.url(name)}/metrics`)).text();
  } catch {
    return "";
  }
}

/** The highest block a scanner replica has processed for `coin`. */
async function scannedHeight(coin: ScannedCoin): Promise<number> {
  const metrics = await Promise.all(SCANNERS.map(scannerMetrics));
  return Math.max(
    0,
    ...metrics.map((text) => Number(new RegExp(`scanner_height\\{chain="${coin.toLowerCase()}"\\} (\\d+)`).exec(text)?.[1] ?? 0)),
  );
}

/** Waits (bounded) until a replica has processed `height` of `coin`; false when it has not in time. */
async function scannerReaches(coin: ScannedCoin, height: number): Promise<boolean> {
  const deadline = Date.now() + SEE_BRANCH_MS;
  while (Date.now() < deadline) {
    if ((await scannedHeight(coin)) >= height) return true;
    await sleep(200);
  }
  return false;
}

/** The scanner replica holding `coin`'s lease, by its metrics; undefined during a handover. */
async function leaseHolder(coin: ScannedCoin): Promise<string | undefined> {
  for (const name of SCANNERS)
    if (new RegExp(`scanner_leader\\{chain="${coin.toLowerCase()}"\\} 1\\n`).test(await scannerMetrics(name))) return name;
  return undefined;
}

async function finalPlace(payment: Payment): Promise<FinalPlace | null> {
  if (payment.coin === "BTC") {
    const tx = await node.walletRpc<{ confirmations: number; blockhash?: string; blocktime?: number }>("gettransaction", [payment.txid]);
    return tx.confirmations > 0 && tx.blockhash ? { block: tx.blockhash, timeMs: tx.blocktime! * 1_000 } : null;
  }
  if (payment.coin === "ETH") {
    const receipt = await anvil.rpc<{ blockHash: string } | null>("eth_getTransactionReceipt", [payment.txid]);
    if (!receipt) return null;
    const block = await anvil.rpc<{ timestamp: string }>("eth_getBlockByHash", [receipt.blockHash, false]);
    return { block: receipt.blockHash, timeMs: Number(block.timestamp) * 1_000 };
  }
  const post = async <T>(path: string, body: unknown) =>
    (await (await fetch(`${tron.devnode.url}${path}`, { method: "POST", body: JSON.stringify(body) })).json()) as T;
  const info = await post<{ blockNumber?: number; blockTimeStamp?: number }>("/wallet/gettransactioninfobyid", { value: payment.txid });
  if (info.blockNumber === undefined) return null;
  const block = await post<{ blockID: string }>("/wallet/getblockbynum", { num: info.blockNumber });
  return { block: block.blockID, timeMs: info.blockTimeStamp! };
}

describe("the hostile node: lagging, alternating, incomplete and failing nodes, A→B→A reorgs, lease handovers, a NATS pause", () => {
  it("every watched payment's last word is the final chain's, no block that stayed is reverted, nothing owed is missed, copies repeat one event id", async () => {
    const started = Date.now();
    const api = async (method: string, path: string, body?: unknown) => {
      const answer = await product.api(method, path, body);
      if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as Record<string, unknown>;
    };
    /** Address → the webhooks watching it. */
    const watches = new Map<string, Watch[]>();
    const watch = (address: string, webhookId: number, origin: string, since = Date.now()) =>
      watches.set(address, [...(watches.get(address) ?? []), { webhookId, since, origin }]);
    /** Addresses the payments go to, per chain; `fresh` ones are paid first (a late arrival must meet a payment). */
    const payable: Record<ScannedCoin, string[]> = { BTC: [], ETH: [], TRX: [] };
    const fresh: Record<ScannedCoin, string[]> = { BTC: [], ETH: [], TRX: [] };
    const payables = (coin: ScannedCoin, ...addresses: string[]) => {
      payable[coin].push(...addresses);
      fresh[coin].push(...addresses);
    };

    // The extended key: one address issued before any webhook names it, the rest as the drill goes.
    const xpubId = (await api("POST", "/api/v1/btc/xpub", { xpub: ZPUB })).id as number;
    const issue = async () => (await api("POST", `/api/v1/btc/xpub/${xpubId}/address`)).address as string;
    const issuedBefore = await issue();
    const clientBtc = await Promise.all(Array.from({ length: 3 }, () => node.walletRpc<string>("getnewaddress")));
    const webhooks: Record<string, CreatedWebhook> = {
      btcAuto: await product.createWebhook("BTC", clientBtc.slice(0, 2), { xpub_ids: [xpubId] }),
      btcLater: await product.createWebhook("BTC", clientBtc.slice(2)),
      eth: await product.createWebhook("ETH", [anvil.accounts[5]!.address, anvil.accounts[6]!.address]),
      trx: await product.createWebhook("TRX", [tron.devnode.genesis.accounts[1]!.base58, tron.devnode.genesis.accounts[2]!.base58]),
    };
    const { btcAuto, btcLater, eth, trx } = webhooks as Record<"btcAuto" | "btcLater" | "eth" | "trx", CreatedWebhook>;
    for (const address of clientBtc.slice(0, 2)) watch(address, btcAuto.id, "client");
    watch(clientBtc[2]!, btcLater.id, "client");
    // Issued before the webhook named its key: watched from the webhook's creation on (issue 16 item 8).
    watch(issuedBefore, btcAuto.id, "xpub issued before the webhook");
    for (const address of eth.addresses) watch(address, eth.id, "client");
    for (const address of trx.addresses) watch(address, trx.id, "client");
    payables("BTC", ...clientBtc, issuedBefore);
    payables("ETH", ...eth.addresses);
    payables("TRX", ...trx.addresses);
    /** Every webhook naming the key now; an issued address is watched by each from its issuance. */
    const xpubWebhooks = [btcAuto.id];
    /** When the auto-watching webhook's list was replaced by a PUT. */
    let listReplacedAt = Infinity;
    const issueWatched = async (origin: string) => {
      const address = await issue();
      performed.push(`${origin} at +${Date.now() - started} ms`);
      for (const webhookId of xpubWebhooks) watch(address, webhookId, origin);
      payables("BTC", address);
    };

    // The schedule, drawn up front from the seed.
    const roundIn = (from: number, to: number) => scheduleRandom.between(from, to);
    const schedule = {
      btcReorg: roundIn(4, ROUNDS - 6),
      ethReorg: roundIn(4, ROUNDS - 6),
      trxReorgs: [roundIn(3, ROUNDS / 2), roundIn(ROUNDS / 2, ROUNDS - 4)],
      trxRequeue: [scheduleRandom.next() < 0.7, scheduleRandom.next() < 0.7],
      natsPause: roundIn(6, ROUNDS - NATS_PAUSE_ROUNDS - 4),
      putClientList: roundIn(3, ROUNDS - 6),
      putXpubIds: roundIn(3, ROUNDS - 6),
      issues: [roundIn(2, ROUNDS - 4), roundIn(2, ROUNDS - 4)],
      killsAtMs: Array.from({ length: SCANNER_KILLS }, () => ({
        at: roundIn(3_000, (ROUNDS - 3) * ROUND_MS),
        coin: scheduleRandom.pick(["BTC", "ETH", "TRX"] as const),
      })),
      phases: Array.from({ length: Math.ceil(ROUNDS / PHASE_ROUNDS) }, () => ({
        BTC: scheduleRandom.pick(Object.keys(FAULT_PROFILES)),
        ETH: scheduleRandom.pick(Object.keys(FAULT_PROFILES)),
        TRX: scheduleRandom.pick(Object.keys(FAULT_PROFILES)),
      })),
    };
    const performed: string[] = [];
    /** Blocks that left the best chain at some point: the only ones a "reverted" may name. */
    const left = new Set<string>();
    const payments = new Map<string, Payment>();
    const record = (payment: Payment) => payments.set(`${payment.coin}:${payment.txid}:${payment.position ?? "-"}`, payment);

    const payAddress = (coin: ScannedCoin) => fresh[coin].shift() ?? paymentRandom.pick(payable[coin]);
    const payBtc = async (address = payAddress("BTC")) => {
      const txid = await node.walletRpc<string>("sendtoaddress", [address, (paymentRandom.between(10_000, 9_999_999) / 1e8).toFixed(8)]);
      record({ coin: "BTC", txid, address, position: (await paidOutputs(node, txid)).get(address)!, sentAt: Date.now() });
    };
    const ethParams = () => ({
      from: anvil.accounts[2]!.address,
      to: payAddress("ETH"),
      value: `0x${(BigInt(paymentRandom.between(1, 1_000_000)) * 1_000_000_000_007n).toString(16)}`,
    });
    const payEth = async (params = ethParams()) => {
      const txid = await anvil.rpc<string>("eth_sendTransaction", [params]);
      record({ coin: "ETH", txid, address: params.to.toLowerCase(), position: null, sentAt: Date.now() });
      return txid;
    };
    /** Through the router: the top-level call pays the contract, its first call frame (position 1) the address. */
    const payEthInternally = async () => {
      const { to, value } = ethParams();
      const txid = await router.forward(to, BigInt(value), anvil.accounts[2]!.address);
      record({ coin: "ETH", txid, address: to.toLowerCase(), position: 1, sentAt: Date.now() });
    };
    const payTrx = async () => {
      const address = payAddress("TRX");
      const sent = await tron.tronWeb.trx.sendTransaction(address, paymentRandom.between(1_000, 2_000_000));
      record({ coin: "TRX", txid: sent.transaction.txID, address, position: null, sentAt: Date.now() });
    };
    /** Through the simulator's forwarder: the entry at index 0 of internal_transactions pays the address. */
    const payTrxInternally = async () => {
      const address = payAddress("TRX");
      const forwarder = await tron.tronWeb.contract().at(tron.devnode.genesis.forwarder.base58);
      const txid: string = await forwarder
        .forward(address)
        .send({ callValue: paymentRandom.between(1_000, 2_000_000), feeLimit: 100_000_000 });
      record({ coin: "TRX", txid, address, position: 0, sentAt: Date.now() });
    };

    /** Bitcoin A→B→A: block a leaves for a longer branch B (its transactions mined there), then comes back and wins. */
    const btcReorg = async () => {
      await payBtc();
      const [a] = await node.mine(1);
      const height = await node.rpc<number>("getblockcount");
      const sawA = await scannerReaches("BTC", height);
      await node.rpc("invalidateblock", [a]);
      left.add(a!);
      const branchB = await node.mine(2, await node.walletRpc<string>("getnewaddress"));
      const sawB = await scannerReaches("BTC", height + 1);
      await node.rpc("invalidateblock", [branchB[0]]);
      for (const hash of branchB) left.add(hash);
      await node.rpc("reconsiderblock", [a]);
      await node.mine(2, await node.walletRpc<string>("getnewaddress"));
      performed.push(`btc A→B→A at ${height} (scanner saw A ${sawA}, B ${sawB})`);
    };
    /** Ethereum A→B→A: snapshot, a payment in A, revert to two empty blocks B, revert again and the same payment re-mined at A's time. */
    const ethReorg = async () => {
      const snapshot = await anvil.rpc<string>("evm_snapshot");
      const params = ethParams();
      const txid = await payEth(params);
      const receipt = await anvil.rpc<{ blockHash: string; blockNumber: string }>("eth_getTransactionReceipt", [txid]);
      const height = Number(receipt.blockNumber);
      const { timestamp } = await anvil.rpc<{ timestamp: string }>("eth_getBlockByHash", [receipt.blockHash, false]);
      const sawA = await scannerReaches("ETH", height);
      await anvil.rpc("evm_revert", [snapshot]);
      left.add(receipt.blockHash);
      const beforeB = await anvil.rpc<string>("evm_snapshot");
      for (let i = 0; i < 2; i++) await anvil.rpc("evm_mine");
      const branchB = await Promise.all(
        [height, height + 1].map(
          async (h) => (await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", [`0x${h.toString(16)}`, false])).hash,
        ),
      );
      const sawB = await scannerReaches("ETH", height + 1);
      await anvil.rpc("evm_revert", [beforeB]);
      for (const hash of branchB) left.add(hash);
      await anvil.rpc("evm_setNextBlockTimestamp", [Number(timestamp)]);
      const again = await payEth(params);
      const { blockHash } = await anvil.rpc<{ blockHash: string }>("eth_getTransactionReceipt", [again]);
      for (let i = 0; i < 2; i++) await anvil.rpc("evm_mine");
      performed.push(
        `eth A→B→A at ${height} (same tx ${again === txid}, same block ${blockHash === receipt.blockHash}, scanner saw A ${sawA}, B ${sawB})`,
      );
    };
    /** Tron: the newest blocks (this round's payment among them) replaced by empty ones; their transactions mined again in the next block (requeue) or gone. */
    const trxReorg = async (requeue: boolean) => {
      const depth = paymentRandom.between(1, 2);
      const number = ((await tron.tronWeb.trx.getCurrentBlock()) as { block_header: { raw_data: { number: number } } }).block_header
        .raw_data.number;
      const sawA = await scannerReaches("TRX", number);
      const reorg = await tron.devnode.reorg(depth, { requeue });
      for (const block of reorg.dropped) left.add(block.blockID);
      await tron.devnode.produceBlock();
      performed.push(
        `trx reorg depth ${depth} at ${number} (requeued ${reorg.requeued.length}, discarded ${reorg.discarded.length}, scanner saw A ${sawA})`,
      );
    };

    const roundsStarted = Date.now();
    let finished = false;
    const kills = (async () => {
      for (const { at, coin } of [...schedule.killsAtMs].sort((a, b) => a.at - b.at)) {
        await sleep(at - (Date.now() - roundsStarted));
        if (finished) break;
        const holder = (await leaseHolder(coin)) ?? "scanner";
        await product.stack.restart(holder, "SIGKILL");
        performed.push(`SIGKILL ${holder} (${coin} lease) at ${Date.now() - started} ms`);
      }
    })();

    let natsDown = false;
    for (let round = 0; round < ROUNDS; round++) {
      const roundStart = Date.now();
      if (round % PHASE_ROUNDS === 0) {
        for (const coin of ["BTC", "ETH", "TRX"] as const)
          proxies[coin].setFaults({
            ...NO_FAULTS,
            ...BASELINE_FAULTS[coin],
            ...FAULT_PROFILES[schedule.phases[round / PHASE_ROUNDS]![coin]],
          });
      }
      if (round === schedule.natsPause) {
        await nats.stop();
        natsDown = true;
        // Issued and added while the registry cannot publish; paid in the next rounds, NATS still down.
        await issueWatched("xpub issued during the NATS pause");
        const [ethAdded, trxAdded] = [anvil.accounts[7]!.address.toLowerCase(), tron.devnode.genesis.accounts[3]!.base58];
        await api("POST", `/api/v1/webhooks/${eth.id}/addresses`, { addresses: [ethAdded] });
        watch(ethAdded, eth.id, "added during the NATS pause");
        await api("POST", `/api/v1/webhooks/${trx.id}/addresses`, { addresses: [trxAdded] });
        watch(trxAdded, trx.id, "added during the NATS pause");
        payables("ETH", ethAdded);
        payables("TRX", trxAdded);
        performed.push(`NATS stopped at ${Date.now() - started} ms`);
      }
      if (natsDown && round === schedule.natsPause + NATS_PAUSE_ROUNDS) {
        await nats.start();
        natsDown = false;
        performed.push(`NATS started at ${Date.now() - started} ms`);
      }
      if (schedule.issues.includes(round)) await issueWatched("xpub issued");
      if (round === schedule.putClientList) {
        // The client's own list, sent again: the addresses the key added must stay watched (item 8).
        await api("PUT", `/api/v1/webhooks/${btcAuto.id}`, { addresses: clientBtc.slice(0, 2) });
        listReplacedAt = Date.now();
        performed.push(`PUT addresses on the auto-watching webhook at +${Date.now() - started} ms`);
      }
      if (round === schedule.putXpubIds) {
        // Naming the key later: the addresses it issued before are watched from now on (item 8).
        await api("PUT", `/api/v1/webhooks/${btcLater.id}`, { xpub_ids: [xpubId] });
        const since = Date.now();
        for (const [address, list] of watches)
          if (list.some((w) => w.origin.startsWith("xpub") && w.webhookId === btcAuto.id))
            watch(address, btcLater.id, "xpub issued before xpub_ids was set", since);
        xpubWebhooks.push(btcLater.id);
        performed.push(`PUT xpub_ids on the other webhook at +${since - started} ms`);
      }

      await payBtc();
      await node.mine(1);
      await (paymentRandom.next() < 1 / 3 ? payEthInternally() : payEth());
      await (paymentRandom.next() < 1 / 3 ? payTrxInternally() : payTrx());
      await tron.devnode.produceBlock();

      if (round === schedule.btcReorg) await btcReorg();
      if (round === schedule.ethReorg) await ethReorg();
      for (const [index, reorgRound] of schedule.trxReorgs.entries()) if (round === reorgRound) await trxReorg(schedule.trxRequeue[index]!);
      await sleep(ROUND_MS - (Date.now() - roundStart));
    }
    finished = true;
    await kills;
    if (natsDown) await nats.start();

    // The chains settle: faults off, everything pending mined, a few blocks on top.
    for (const proxy of Object.values(proxies)) proxy.setFaults(NO_FAULTS);
    await node.mine(2);
    for (let i = 0; i < 2; i++) await anvil.rpc("evm_mine");
    for (let i = 0; i < 2; i++) await tron.devnode.produceBlock();
    const paymentsEndedMs = Date.now() - started;

    /** Per payment and webhook watching its address: the final chain's word and whether it was owed. */
    const places = new Map<string, FinalPlace | null>();
    for (const [key, payment] of payments) places.set(key, await finalPlace(payment));
    const watched: WatchedPayment[] = [...payments].flatMap(([key, payment]) =>
      (watches.get(payment.address) ?? []).map((w) => {
        const place = places.get(key)!;
        return {
          webhookId: w.webhookId,
          txid: payment.txid,
          position: payment.position,
          currency: payment.coin,
          finalBlock: place?.block ?? null,
          owed: place !== null && w.since <= place.timeMs,
          origin: `${payment.coin} ${w.origin}${w.origin.startsWith("xpub") && payment.sentAt > listReplacedAt ? ", paid after the PUT of the list" : ""}`,
          note: `watched since +${w.since - started} ms, paid at +${payment.sentAt - started} ms, block time +${place ? place.timeMs - started : "-"} ms${place && left.has(place.block) ? ", its block left the best chain and came back" : ""}`,
        };
      }),
    );
    /** Which part of issue 16 owes a missed notification, from how its address came to be watched. */
    const missedBecause = (origin: string) =>
      /NATS pause/.test(origin)
        ? "item 7"
        : /before the webhook|before xpub_ids|after the PUT/.test(origin)
          ? "item 8"
          : /xpub issued/.test(origin)
            ? "item 7"
            : "neither item 7 nor 8";
    const received = () =>
      Object.values(webhooks).flatMap((webhook) => product.notifications(webhook).map((n) => n.payload as unknown as TransferNotification));
    const verdictNow = () => judge(watched, received(), left);
    const settled = (v: Verdict) => v.missed.length + v.falseFinalWordsPerBlock.length === 0;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (!settled(verdictNow()) && Date.now() < deadline) await sleep(500);
    await sleep(QUIET_MS);
    const verdict = verdictNow();
    // The registry's own lists at the end: which issued addresses each BTC webhook holds (items 7, 8).
    const issuedAddresses = [...watches].filter(([, list]) => list.some((w) => w.origin.startsWith("xpub"))).map(([address]) => address);
    const registryHolds = Object.fromEntries(
      await Promise.all(
        [btcAuto, btcLater].map(async (webhook) => {
          const stored = ((await api("GET", `/api/v1/webhooks/${webhook.id}`)).data as { addresses: string[] }).addresses;
          return [
            webhook.id,
            {
              issuedHeld: issuedAddresses.filter((a) => stored.includes(a)).length,
              issuedTotal: issuedAddresses.length,
              addresses: stored.length,
            },
          ];
        }),
      ),
    );
    const unsigned = Object.values(webhooks).flatMap((webhook) => product.notifications(webhook).filter((n) => !n.signed));

    const report = {
      seed: SEED,
      payments: verdict.payments,
      /** Of the payments made, those through a contract (ETH, TRX). */
      internalPayments: [...payments.values()].filter((p) => p.coin !== "BTC" && p.position !== null).length,
      notifications: verdict.notifications,
      reverts: verdict.reverts,
      falseFinalWords: verdict.falseFinalWords.length,
      falseFinalWordsPerBlock: verdict.falseFinalWordsPerBlock.length,
      missed: verdict.missed.length,
      missedBecause: Object.fromEntries(
        ["item 7", "item 8", "neither item 7 nor 8"].map((item) => [
          item,
          verdict.missed.filter((m) => missedBecause(m.origin) === item).length,
        ]),
      ),
      duplicates: verdict.duplicates,
      falseReverts: verdict.falseReverts.length,
      unexpected: verdict.unexpected.length,
      blocksThatLeft: left.size,
      setupMs,
      paymentsEndedMs,
      settledAfterMs: Date.now() - started - paymentsEndedMs,
      performed,
      registryHolds,
      proxies: Object.fromEntries(Object.entries(proxies).map(([coin, proxy]) => [coin, proxy.counters()])),
      details: {
        missed: verdict.missed,
        falseFinalWords: verdict.falseFinalWords,
        falseFinalWordsPerBlock: verdict.falseFinalWordsPerBlock,
        falseReverts: verdict.falseReverts,
        unexpected: verdict.unexpected,
        duplicatesUnderNewIds: verdict.duplicatesUnderNewIds,
      },
    };
    mkdirSync(new URL(".", `file://${REPORT}`), { recursive: true });
    writeFileSync(REPORT, JSON.stringify(report, null, 2));
    process.stdout.write(
      `hostile node: seed ${SEED}, payments ${report.payments} (internal ${report.internalPayments}), notifications ${report.notifications}, reverts ${report.reverts}, ` +
        `false final words ${report.falseFinalWords} (per block ${report.falseFinalWordsPerBlock}), missed ${report.missed} ${JSON.stringify(report.missedBecause)}, duplicates ${report.duplicates}, ` +
        `false reverts ${report.falseReverts}, unexpected ${report.unexpected}; full report ${REPORT}\n`,
    );

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
