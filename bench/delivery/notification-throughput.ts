/**
 * Delivery (issue: webhooks). A real delivery process (its start script) over real Postgres and
 * NATS signs and POSTs `transfer.matched` events to a node:http receiver on this machine:
 * notifications per second and the latency from publish to the receiver's answer (p50/p99).
 * Target on a 2-core machine: >= 1,000 notifications per second. Then the memory of the
 * registry's answer for one webhook with 1,000,000 addresses (peak RSS growth of the process).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
// By path: bench/package.json (not this file's owner) does not list the delivery service or its dependencies.
import { insertManyAddresses, openTransferPublisher, type TransferMatchedEvent } from "../../services/delivery/src/testing/bench-support.ts";
import { createTestDatabase, freePort, spawnService, stopChild, waitForHttp } from "@chaingate/testing";
import { ROOT } from "../support/processes.ts";

const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 10_000);
const WEBHOOKS = 20;
const TARGET_PER_SECOND = 1_000;
const ADDRESSES = 1_000_000;
const PUBLISH_BATCH = 200;
const ACCOUNT_HEADER = "x-chaingate-account-id";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchDeliveryThroughput(): Promise<boolean> {
  const database = await createTestDatabase();
  const namespace = `bench${randomBytes(3).toString("hex")}`;
  const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const publishedAt = new Map<string, number>();
  const latencies: number[] = [];
  let lastArrival = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = req.headers["webhook-id"] as string;
      const started = publishedAt.get(id);
      if (started !== undefined && publishedAt.delete(id)) latencies.push(performance.now() - started);
      lastArrival = performance.now();
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const port = await freePort();
  const delivery = spawnService(
    `${ROOT}services/delivery`,
    { PORT: String(port), DATABASE_URL: database.connectionString, NATS_URL: natsUrl, NATS_NAMESPACE: namespace, WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", LOG_LEVEL: "warn", ACCESS_LOG: "false" },
    { captureOutput: false },
  );
  const bus = await openTransferPublisher(natsUrl, namespace);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 30_000);
    const headers = { "content-type": "application/json", accept: "application/json", [ACCOUNT_HEADER]: "1" };
    const ids: number[] = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ coin: "BTC", webhook_url: `${receiverUrl}/hook/${i}`, addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"] }),
      });
      ids.push(((await response.json()) as { data: { id: number } }).data.id);
    }
    const event = (i: number): TransferMatchedEvent => ({
      event_id: `evt_${i}`, type: "transfer", webhook_id: ids[i % WEBHOOKS]!, coin: "BTC", currency: "BTC", from: null,
      to: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", watched_address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", amount: "0.001", raw_amount: "100000",
      decimals: 8, token_contract: null, txid: i.toString(16).padStart(64, "0"), position: 0, block: { height: i, hash: "00".repeat(32), time: "2026-11-22T10:00:00.000Z" },
      execution_status: "SUCCESS", confirmations: 1,
    });
    const started = performance.now();
    for (let i = 0; i < EVENTS; i += PUBLISH_BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(PUBLISH_BATCH, EVENTS - i) }, (_, k) => {
          publishedAt.set(`evt_${i + k}`, performance.now());
          return bus.publish(event(i + k));
        }),
      );
    }
    const deadline = Date.now() + 120_000;
    while (latencies.length < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const seconds = (lastArrival - started) / 1000;
    const perSecond = latencies.length / seconds;
    latencies.sort((a, b) => a - b);
    console.log(`delivery: ${latencies.length}/${EVENTS} signed notifications to ${WEBHOOKS} webhooks in ${seconds.toFixed(2)} s = ${Math.round(perSecond)}/s (target >= ${TARGET_PER_SECOND}/s)`);
    console.log(`delivery: publish → receiver answer p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);

    // One webhook with 1,000,000 addresses (inserted directly: the bench measures the answer, not the batch API).
    await insertManyAddresses(database.connectionString, ids[0]!, ADDRESSES);
    delivery.resetPeakMemory();
    const before = delivery.memory().rss;
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/${ids[0]}`, { headers });
    const bytes = (await answer.arrayBuffer()).byteLength;
    const peak = delivery.memory().peakRss;
    console.log(`delivery: GET of a webhook with ${ADDRESSES.toLocaleString("en")} addresses: ${(bytes / 1e6).toFixed(1)} MB answer, process peak RSS +${((peak - before) / 1e6).toFixed(0)} MB (RSS before ${(before / 1e6).toFixed(0)} MB)`);
    return latencies.length === EVENTS && perSecond >= TARGET_PER_SECOND;
  } finally {
    await bus.close();
    await stopChild(delivery.process);
    receiver.closeAllConnections();
    receiver.close();
    await database.drop();
  }
}
