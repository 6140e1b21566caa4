/**
 * Delivery (issue: webhooks). A real delivery process (its start script) over real Postgres and
 * NATS signs and POSTs `transfer.matched` events to a node:http receiver on this machine.
 * - burst: 10,000 events published as fast as the publisher can; notifications per second from the
 *   first publish to the last answer, and the publish → answer latency (p50/p99, which includes
 *   the wait behind the burst). Target on a 2-core machine: >= 1,000 notifications per second.
 * - paced: 1,000 events per second for 10 s (the target rate, offered steadily): p50/p99 publish
 *   → answer when no backlog is left over from a burst.
 * Then the memory of the registry's answer for one webhook with 1,000,000 addresses (peak RSS
 * growth of the process).
 *
 * BENCH_DELIVERY_EVENTS (10,000), BENCH_DELIVERY_ADDRESSES (1,000,000; 0 skips that part),
 * BENCH_DELIVERY_SERVICE_DIR (another build of the service, for before/after runs in the same
 * conditions), BENCH_DELIVERY_NODE_OPTIONS (e.g. `--import <a profiler preload>`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
// By path: bench/package.json (not this file's owner) does not list the delivery service or its dependencies.
import {
  insertManyAddresses,
  waitForRegistryOutbox,
  openTransferPublisher,
  type TransferMatchedEvent,
} from "../support/delivery-tables.ts";
import { createTestDatabase, freePort, spawnService, stopChild, waitForHttp, type SpawnedService } from "@chaingate/testing";
import { ROOT } from "../support/processes.ts";

const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 10_000);
const WEBHOOKS = 20;
const TARGET_PER_SECOND = 1_000;
const PACED_SECONDS = 10;
/** Paced publishing sends this often (events per tick = rate × tick). */
const PACED_TICK_MS = 10;
/** 0 skips the large-webhook part (profiling runs). */
const ADDRESSES = Number(process.env.BENCH_DELIVERY_ADDRESSES ?? 1_000_000);
const SERVICE_DIR = process.env.BENCH_DELIVERY_SERVICE_DIR ?? `${ROOT}services/delivery`;
const PUBLISH_BATCH = 200;
const PHASE_TIMEOUT_MS = 120_000;
const ACCOUNT_HEADER = "x-chaingate-account-id";
const HEADERS = { "content-type": "application/json", accept: "application/json", [ACCOUNT_HEADER]: "1" };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PhaseResult {
  delivered: number;
  perSecond: number;
  p50: number;
  p99: number;
}

type TransferPublisher = Awaited<ReturnType<typeof openTransferPublisher>>;

/** A node:http receiver of the notifications, timing each from its publish to its answer by `webhook-id`. */
interface NotificationReceiver {
  url: string;
  /** Publish time of each event not yet answered, by event id. */
  publishedAt: Map<string, number>;
  /** Publish → answer latencies since the last `clearLatencies()`. */
  readonly latencies: number[];
  /** When the last notification arrived (performance.now()). */
  readonly lastArrival: number;
  clearLatencies(): void;
  close(): void;
}

async function startReceiver(): Promise<NotificationReceiver> {
  const publishedAt = new Map<string, number>();
  let latencies: number[] = [];
  let lastArrival = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = req.headers["webhook-id"] as string;
      const started = publishedAt.get(id);
      if (started !== undefined && publishedAt.delete(id)) latencies.push(performance.now() - started);
      lastArrival = performance.now();
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    publishedAt,
    get latencies() {
      return latencies;
    },
    get lastArrival() {
      return lastArrival;
    },
    clearLatencies: () => {
      latencies = [];
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

function spawnDelivery(port: number, databaseUrl: string, natsUrl: string, namespace: string): SpawnedService {
  return spawnService(
    SERVICE_DIR,
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      NATS_NAMESPACE: namespace,
      WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
      LOG_LEVEL: "warn",
      ACCESS_LOG: "false",
      ...(process.env.BENCH_DELIVERY_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_DELIVERY_NODE_OPTIONS } : {}),
    },
    { captureOutput: false },
  );
}

/** WEBHOOKS BTC webhooks notifying the receiver; their ids. */
async function createWebhooks(port: number, receiverUrl: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({
        coin: "BTC",
        webhook_url: `${receiverUrl}/hook/${i}`,
        addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
      }),
    });
    ids.push(((await response.json()) as { data: { id: number } }).data.id);
  }
  return ids;
}

/** The i-th matched transfer, for the webhooks in turn. */
function transferEvent(i: number, webhookIds: number[]): TransferMatchedEvent {
  return {
    event_id: `evt_${i}`,
    type: "transfer",
    webhook_id: webhookIds[i % WEBHOOKS]!,
    coin: "BTC",
    currency: "BTC",
    from: null,
    to: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    watched_address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    amount: "0.001",
    raw_amount: "100000",
    decimals: 8,
    token_contract: null,
    txid: i.toString(16).padStart(64, "0"),
    position: 0,
    block: { height: i, hash: "00".repeat(32), time: "2026-11-22T10:00:00.000Z" },
    execution_status: "SUCCESS",
    confirmations: 1,
  };
}

/** Publishes the next `count` events, noting when each was published. */
function eventPublisher(bus: TransferPublisher, receiver: NotificationReceiver, webhookIds: number[]) {
  let sequence = 0;
  return (count: number) =>
    Promise.all(
      Array.from({ length: count }, () => {
        const next = transferEvent(sequence++, webhookIds);
        receiver.publishedAt.set(next.event_id, performance.now());
        return bus.publish(next);
      }),
    );
}

/** Publishes `count` events through `schedule`, waits for their answers, and measures. */
async function measurePhase(receiver: NotificationReceiver, count: number, schedule: () => Promise<void>): Promise<PhaseResult> {
  receiver.clearLatencies();
  const started = performance.now();
  await schedule();
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  while (receiver.latencies.length < count && Date.now() < deadline) await sleep(100);
  const sorted = receiver.latencies.toSorted((a, b) => a - b);
  return {
    delivered: sorted.length,
    perSecond: sorted.length / ((receiver.lastArrival - started) / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/** EVENTS published as fast as the publisher can; passes at TARGET_PER_SECOND. */
async function runBurst(receiver: NotificationReceiver, publish: (count: number) => Promise<unknown>): Promise<boolean> {
  const burst = await measurePhase(receiver, EVENTS, async () => {
    for (let i = 0; i < EVENTS; i += PUBLISH_BATCH) await publish(Math.min(PUBLISH_BATCH, EVENTS - i));
  });
  const burstPassed = burst.delivered === EVENTS && burst.perSecond >= TARGET_PER_SECOND;
  console.log(
    `delivery burst: ${burst.delivered}/${EVENTS} signed notifications to ${WEBHOOKS} webhooks = ${Math.round(burst.perSecond)}/s; publish → receiver answer p50 ${burst.p50.toFixed(1)} ms, p99 ${burst.p99.toFixed(1)} ms   target >= ${TARGET_PER_SECOND}/s   ${burstPassed ? "PASS" : "FAIL"}`,
  );
  return burstPassed;
}

/** TARGET_PER_SECOND events per second for PACED_SECONDS; passes when all are delivered. */
async function runPaced(receiver: NotificationReceiver, publish: (count: number) => Promise<unknown>): Promise<boolean> {
  const pacedCount = TARGET_PER_SECOND * PACED_SECONDS;
  const perTick = (TARGET_PER_SECOND * PACED_TICK_MS) / 1000;
  const paced = await measurePhase(receiver, pacedCount, async () => {
    const start = performance.now();
    const sending: Promise<unknown>[] = [];
    // Catch up on missed ticks: the offered rate stays at the target even when the publisher is late.
    for (let sent = 0; sent < pacedCount; ) {
      const due = Math.min(pacedCount, Math.floor((performance.now() - start) / PACED_TICK_MS + 1) * perTick);
      if (due > sent) {
        sending.push(publish(due - sent));
        sent = due;
      }
      await sleep(PACED_TICK_MS);
    }
    await Promise.all(sending);
  });
  const pacedPassed = paced.delivered === pacedCount;
  console.log(
    `delivery paced: ${paced.delivered}/${pacedCount} at ${TARGET_PER_SECOND}/s offered for ${PACED_SECONDS} s, delivered at ${Math.round(paced.perSecond)}/s; publish → receiver answer p50 ${paced.p50.toFixed(1)} ms, p99 ${paced.p99.toFixed(1)} ms   target: all delivered   ${pacedPassed ? "PASS" : "FAIL"}`,
  );
  return pacedPassed;
}

/** The process's peak RSS growth while it answers GET of one webhook with ADDRESSES addresses. */
async function measureLargeWebhookAnswer(delivery: SpawnedService, databaseUrl: string, port: number, webhookId: number): Promise<void> {
  // One webhook with 1,000,000 addresses (inserted directly: the bench measures the answer, not the batch API).
  await insertManyAddresses(databaseUrl, webhookId, ADDRESSES);
  // Measured once the registry's relay is idle: its publishing of the change is not the answer's memory.
  await waitForRegistryOutbox(databaseUrl, 120_000);
  delivery.resetPeakMemory();
  const before = delivery.memory().rss;
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/${webhookId}`, { headers: HEADERS });
  const bytes = (await answer.arrayBuffer()).byteLength;
  const peak = delivery.memory().peakRss;
  console.log(
    `delivery: GET of a webhook with ${ADDRESSES.toLocaleString("en")} addresses: ${(bytes / 1e6).toFixed(1)} MB answer, process peak RSS +${((peak - before) / 1e6).toFixed(0)} MB (RSS before ${(before / 1e6).toFixed(0)} MB)`,
  );
}

export async function benchDeliveryThroughput(): Promise<boolean> {
  const database = await createTestDatabase();
  const namespace = `bench${randomBytes(3).toString("hex")}`;
  const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const receiver = await startReceiver();
  const port = await freePort();
  const delivery = spawnDelivery(port, database.connectionString, natsUrl, namespace);
  const bus = await openTransferPublisher(natsUrl, namespace);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 30_000);
    const ids = await createWebhooks(port, receiver.url);
    const publish = eventPublisher(bus, receiver, ids);
    const burstPassed = await runBurst(receiver, publish);
    const pacedPassed = await runPaced(receiver, publish);
    const passed = burstPassed && pacedPassed;
    if (ADDRESSES === 0) return passed;
    await measureLargeWebhookAnswer(delivery, database.connectionString, port, ids[0]!);
    return passed;
  } finally {
    await bus.close();
    await stopChild(delivery.process);
    receiver.close();
    await database.drop();
  }
}
