/**
 * Notification latency (issue 8): from "the node returned the new block" to "the subscriber's
 * receiver answered the POST", in the dev stack: the scanner and delivery as real processes with
 * their dev defaults (scanner poll interval DEFAULT_POLL_INTERVAL_MS), the gateway for the webhook
 * registry, litecoind regtest and the Tron simulator (its own process), a receiver on loopback in
 * this process. Per block one watched payment: t0 = `generatetoaddress` / `POST
 * /admin/produceblock` returned, t1 = the receiver answered the notification of that payment.
 * Blocks are produced at a random phase of the scanner's poll cycle (seeded), one at a time.
 *
 * Baseline, measured in the same run for each block: the floor a polling follower cannot beat on
 * average, half the poll interval plus one direct fetch of that block as the scanner fetches it
 * (BTC getblockhash + getblock verbosity 2; TRX getblockbynum + gettransactioninfobyblocknum).
 * No latency target is set by the issue; the bench fails only if a payment is not notified.
 */
import { createGenesis, type DevAccount } from "@chaingate/tron-devnode";
import { createTestDatabase, freePort, seededRandom, startLitecoindRegtest, stopChild, waitForHttp, type LitecoindRegtest } from "@chaingate/testing";
import { TronWeb } from "tronweb";
// By path: the drills' product stack (every service a process) and the scanner's default poll interval.
import { RECEIVER_PATH, startNotificationStack, type NotificationStack } from "../../drills/src/notification-stack.ts";
import { DEFAULT_POLL_INTERVAL_MS } from "../../services/scanner/src/domain/follow-chain.ts";
import { ROOT, startScript } from "../support/processes.ts";

const BLOCKS = Number(process.env.BENCH_LATENCY_BLOCKS ?? 50);
/** Blocks first produced and not counted (JIT, connection pools, first queries). */
const WARMUP_BLOCKS = 3;
const NOTIFICATION_TIMEOUT_MS = 30_000;
const SEED = 8;

interface Sample {
  latencyMs: number;
  /** Half the poll interval plus the direct fetch of the block. */
  floorMs: number;
  fetchMs: number;
}

interface Chain {
  name: string;
  /** Pays the watched address (unmined); the txid. */
  pay(): Promise<string>;
  /** Produces the block holding the payment; resolves when the node returned it. */
  produceBlock(): Promise<string | number>;
  /** Times one direct fetch of the block as the scanner needs it, in ms. */
  timeFetch(block: string | number): Promise<number>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function measure(chain: Chain, answeredAt: Map<string, number>): Promise<Sample[]> {
  const random = seededRandom(SEED);
  const samples: Sample[] = [];
  for (let i = 0; i < WARMUP_BLOCKS + BLOCKS; i++) {
    await sleep(random.next() * DEFAULT_POLL_INTERVAL_MS);
    const txid = await chain.pay();
    const block = await chain.produceBlock();
    const t0 = performance.now();
    const deadline = Date.now() + NOTIFICATION_TIMEOUT_MS;
    while (!answeredAt.has(txid)) {
      if (Date.now() > deadline) throw new Error(`${chain.name}: no notification of ${txid} within ${NOTIFICATION_TIMEOUT_MS} ms`);
      await sleep(5);
    }
    const latencyMs = answeredAt.get(txid)! - t0;
    const fetchMs = await chain.timeFetch(block);
    if (i >= WARMUP_BLOCKS) samples.push({ latencyMs, fetchMs, floorMs: DEFAULT_POLL_INTERVAL_MS / 2 + fetchMs });
  }
  return samples;
}

function report(name: string, samples: Sample[]): void {
  const latencies = samples.map((s) => s.latencyMs).sort((a, b) => a - b);
  const fetches = samples.map((s) => s.fetchMs).sort((a, b) => a - b);
  const floor = mean(samples.map((s) => s.floorMs));
  const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
  console.log(
    `notification-latency ${name}: ${samples.length} blocks, block returned → receiver answered p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms ` +
      `(min ${latencies[0]!.toFixed(0)}, max ${latencies.at(-1)!.toFixed(0)})`,
  );
  console.log(
    `notification-latency ${name}: floor = poll/2 + direct fetch (p50 ${percentile(fetches, 50).toFixed(1)} ms) = ${floor.toFixed(0)} ms on average; ` +
      `p50 / floor = ${(p50 / floor).toFixed(2)}, p99 / (poll + p99 fetch) = ${(p99 / (DEFAULT_POLL_INTERVAL_MS + percentile(fetches, 99))).toFixed(2)}`,
  );
  // Blocks land at a uniformly random phase of the poll cycle, so the mean wait for the next poll is
  // half the interval: what the mean latency exceeds the floor by is the path's own work.
  console.log(`notification-latency ${name}: mean ${mean(latencies).toFixed(0)} ms − floor = ${(mean(latencies) - floor).toFixed(0)} ms of processing (scanner match and publish, NATS, delivery store, claim, sign and POST)`);
}

function bitcoinChain(node: LitecoindRegtest, address: string): Chain {
  return {
    name: "BTC",
    pay: () => node.fundAddress(address, "0.001"),
    produceBlock: async () => (await node.mine(1))[0]!,
    async timeFetch(hash) {
      const { height } = await node.rpc<{ height: number }>("getblockheader", [hash]);
      const started = performance.now();
      await node.rpc("getblock", [await node.rpc<string>("getblockhash", [height]), 2]);
      return performance.now() - started;
    },
  };
}

function tronChain(devnodeUrl: string, tronWeb: TronWeb, recipient: string): Chain {
  const post = async (path: string, body: unknown) => (await fetch(`${devnodeUrl}${path}`, { method: "POST", body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
  return {
    name: "TRX",
    pay: async () => (await tronWeb.trx.sendTransaction(recipient, 1_000_000)).transaction.txID,
    produceBlock: async () => ((await post("/admin/produceblock", {})) as { block_header: { raw_data: { number: number } } }).block_header.raw_data.number,
    async timeFetch(num) {
      const started = performance.now();
      await Promise.all([post("/wallet/getblockbynum", { num }), post("/wallet/gettransactioninfobyblocknum", { num })]);
      return performance.now() - started;
    },
  };
}

export async function benchNotificationLatency(): Promise<boolean> {
  const database = await createTestDatabase();
  const devnodePort = await freePort();
  const devnodeUrl = `http://127.0.0.1:${devnodePort}`;
  const devnode = startScript(`${ROOT}packages/tron-devnode/src/bin/tron-devnode.ts`, { TRON_DEVNODE_PORT: String(devnodePort), TRON_DEVNODE_BLOCK_INTERVAL_MS: "0" });
  let node: LitecoindRegtest | undefined;
  let product: NotificationStack | undefined;
  try {
    node = await startLitecoindRegtest();
    await node.mine(101);
    await waitForHttp(`${devnodeUrl}/healthcheck`);
    product = await startNotificationStack({ databaseUrl: database.connectionString, bitcoin: node, tronUrl: devnodeUrl });
    const answeredAt = new Map<string, number>();
    product.receiver.on(RECEIVER_PATH, (request, response) => {
      response.end("ok");
      answeredAt.set((JSON.parse(request.body) as { txid: string }).txid, performance.now());
    });

    const address = await node.walletRpc<string>("getnewaddress");
    const [sender, recipient] = createGenesis().accounts as [DevAccount, DevAccount];
    await product.createWebhook("BTC", [address]);
    await product.createWebhook("TRX", [recipient.base58]);
    const tronWeb = new TronWeb({ fullHost: devnodeUrl, privateKey: sender.privateKey });

    console.log(`\n== notification latency: ${BLOCKS} blocks per chain, one watched payment each, scanner poll ${DEFAULT_POLL_INTERVAL_MS} ms (dev default) ...`);
    for (const chain of [bitcoinChain(node, address), tronChain(devnodeUrl, tronWeb, recipient.base58)]) report(chain.name, await measure(chain, answeredAt));
    const duplicates = product.receiver.received.length - answeredAt.size;
    console.log(`notification-latency: ${answeredAt.size} payments notified, ${duplicates} extra deliveries`);
    return duplicates === 0;
  } catch (error) {
    console.error(`notification-latency: ${String(error)}`);
    return false;
  } finally {
    await product?.stop();
    await node?.stop();
    await stopChild(devnode);
    await database.drop();
  }
}
