/**
 * One run of `pnpm bench mempool`: the synthetic bitcoind (its own process) with a full mempool,
 * the real mempool watcher in this process against a watch index of `watchedCount` addresses, the
 * first poll timed, then the churn switched on for the measured window. This process's CPU over
 * the window is the watcher's (its node client, its Postgres client, the event recorder); the
 * node's is not.
 */
import { fileURLToPath } from "node:url";
import type { MempoolTransferPayload } from "@chaingate/contracts";
import { bitcoin, createNodeClient, type NodeClient } from "@chaingate/node-client";
import { WatchIndex } from "@chaingate/scanner";
import { createTestDatabase, freePort, stopChild, waitForPort } from "@chaingate/testing";
import { heapUsed } from "../support/heap-used.ts";
import { startScript } from "../support/processes.ts";
import {
  createBitcoinMempoolSource,
  createSerialLock,
  DEFAULT_MEMPOOL_POLL_MS,
  openScannerState,
  watchMempool,
} from "@chaingate/scanner/testing";
import { bitcoinAddress } from "./synthetic-blocks.ts";

export const MEMPOOL_SIZE = 50_000;
export const POLL_MS = DEFAULT_MEMPOOL_POLL_MS;
export const CHURN_PER_SECOND = Number(process.env.BENCH_MEMPOOL_CHURN ?? 10);
export const WINDOW_SECONDS = Number(process.env.BENCH_MEMPOOL_SECONDS ?? 30);
/**
 * Churn before the window: after the first poll V8 shrinks the heap it grew for it (a run whose
 * process grew it earlier does not), which would fall into one run's window and not the other's.
 */
export const WARM_UP_SECONDS = 10;
export const WATCHED_EVERY_INITIAL = 1_000;
/** 1 in 10, not 1 in 1,000: at 10 new transactions a second, 1 in 1,000 would give no latency sample in the window. */
export const WATCHED_EVERY_NEW = 10;
const ADDRESSES_PER_WEBHOOK = 1_000;
const RPC_USER = "bench";
const RPC_PASSWORD = "bench";
const MB = 1024 * 1024;

export interface ChurnRun {
  watchedCount: number;
  firstPollSeconds: number;
  /** RSS (MB): after the index was built, before the watcher started; right after the first poll; at the end of the window; the highest sampled. */
  rss: { before: number; afterFirstPoll: number; end: number; peak: number };
  /**
   * Live heap (MB, after full GCs): before; at the end of the first poll, from its onPoll (what the
   * poll still holds); between the first poll and the next; after the window's last polls.
   */
  heap: { before: number; inFirstPoll: number; afterFirstPoll: number; end: number };
  cpuMsPerSecond: number;
  windowPolls: number;
  pollMedianMs: number;
  mempoolSizeAtEnd: number;
  minedInWindow: number;
  /** Watched payments the node made (each pays one watched address of one webhook). */
  expected: number;
  /** Of those, announced once / more than once / never; events for anything else or of another type. */
  once: number;
  twice: number;
  missing: number;
  extra: number;
  /** Node added a watched transaction (churn only) → `publish` called, ms. */
  latencies: number[];
  failedPolls: string[];
}

/** `count` BTC addresses in webhooks of 1,000, each with `pending` on. */
function buildIndex(count: number): WatchIndex {
  const index = new WatchIndex();
  for (let start = 0, id = 1; start < count; start += ADDRESSES_PER_WEBHOOK, id++) {
    const addresses = Array.from({ length: Math.min(ADDRESSES_PER_WEBHOOK, count - start) }, (_, i) => bitcoinAddress(start + i));
    index.apply({ webhookId: id, coin: "BTC", isActive: true, deleted: false, version: 1, confirmations: 1, pending: true, addresses });
  }
  return index;
}

const clock = () => performance.timeOrigin + performance.now();
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const rssMb = () => process.memoryUsage.rss() / MB;

async function startNode(watchedCount: number): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = startScript(fileURLToPath(new URL("./synthetic-bitcoind.ts", import.meta.url)), {
    PORT: String(port),
    RPC_AUTH: `${RPC_USER}:${RPC_PASSWORD}`,
    MEMPOOL_SIZE: String(MEMPOOL_SIZE),
    CHURN_PER_SECOND: String(CHURN_PER_SECOND),
    WATCHED_COUNT: String(watchedCount),
    WATCHED_EVERY_INITIAL: String(WATCHED_EVERY_INITIAL),
    WATCHED_EVERY_NEW: String(WATCHED_EVERY_NEW),
  });
  await waitForPort(port, true, 60_000);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

const nodeClient = (url: string): NodeClient =>
  createNodeClient({ chain: bitcoin, urls: [url], auth: { user: RPC_USER, password: RPC_PASSWORD } });

interface WatchedPayment {
  txid: string;
  n: number;
  address: string;
  addedAtMs: number | null;
}

/** Each watched payment against the events published for it: once, more, never; and events for nothing expected. */
function judgeEvents(
  index: WatchIndex,
  payments: readonly WatchedPayment[],
  events: ReadonlyArray<{ event: MempoolTransferPayload; atMs: number }>,
) {
  const keyOf = (txid: string, n: number | null, webhookId: unknown) => `${txid}:${n}:${String(webhookId)}`;
  const published = new Map<string, number[]>();
  let extra = 0;
  for (const { event, atMs } of events) {
    if (event.type !== "pending") extra++;
    else
      published.set(keyOf(event.txid, event.position, event.webhook_id), [
        ...(published.get(keyOf(event.txid, event.position, event.webhook_id)) ?? []),
        atMs,
      ]);
  }
  let once = 0;
  let twice = 0;
  let missing = 0;
  const latencies: number[] = [];
  const expectedKeys = new Set<string>();
  for (const payment of payments) {
    const key = keyOf(payment.txid, payment.n, index.watchers("BTC", payment.address));
    expectedKeys.add(key);
    const times = published.get(key) ?? [];
    if (times.length === 0) missing++;
    else if (times.length === 1) once++;
    else twice++;
    if (times.length && payment.addedAtMs !== null) latencies.push(times[0]! - payment.addedAtMs);
  }
  for (const key of published.keys()) if (!expectedKeys.has(key)) extra++;
  return { once, twice, missing, extra, latencies };
}

/** Resolves at the `count`-th poll from now. */
type PollWaiter = (count: number) => Promise<void>;

export async function churnRun(watchedCount: number): Promise<ChurnRun> {
  const node = await startNode(watchedCount);
  const database = await createTestDatabase();
  const state = await openScannerState({
    databaseUrl: database.connectionString,
    natsUrl: process.env.NATS_URL!,
    namespace: `benchmempool${Date.now()}`,
  });
  const [store, closeStore] = [state.mempoolStore, () => state.close()];
  const watcherNode = nodeClient(node.url);
  const control = nodeClient(node.url);
  const controller = new AbortController();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
  try {
    const index = buildIndex(watchedCount);
    const events: Array<{ event: MempoolTransferPayload; atMs: number }> = [];
    const failedPolls: string[] = [];
    const source = createBitcoinMempoolSource(watcherNode);
    const pollTimes: Array<{ startedMs: number; endedMs: number }> = [];
    let pollStartedMs = 0;
    let polls = 0;
    const waiters: Array<{ at: number; resolve(): void }> = [];
    const waitPolls: PollWaiter = (count) => new Promise((resolve) => waiters.push({ at: polls + count, resolve }));
    let rssAfterFirstPoll = 0;
    let heapInFirstPoll = 0;
    const heapBefore = heapUsed() / MB;
    const rssBefore = rssMb();
    peak = rssBefore;
    const startedMs = clock();
    const watching = watchMempool({
      // The real source, its poll's start noted: a poll starts with `getrawmempool`.
      source: { ...source, txids: () => ((pollStartedMs = clock()), source.txids()) },
      index,
      store,
      generations: async () => new Map(),
      publish: async (event) => void events.push({ event, atMs: clock() }),
      lock: createSerialLock(),
      logger: { info: () => {}, error: () => {}, warn: (fields) => void failedPolls.push(String((fields as { err?: unknown }).err)) },
      signal: controller.signal,
      pollIntervalMs: POLL_MS,
      onPoll: () => {
        pollTimes.push({ startedMs: pollStartedMs, endedMs: clock() });
        if (++polls === 1) {
          rssAfterFirstPoll = rssMb();
          // Still inside the poll: what it holds at its end (every transaction it read), before the window starts.
          heapInFirstPoll = heapUsed() / MB;
        }
        for (const waiter of waiters) if (waiter.at === polls) waiter.resolve();
      },
    });
    await waitPolls(1);
    const firstPollSeconds = (pollTimes[0]!.endedMs - startedMs) / 1000;
    const heapAfterFirstPoll = heapUsed() / MB;
    await control.call("bench_churn", [true]);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_SECONDS * 1000));
    const cpuStart = process.cpuUsage();
    const windowStartMs = clock();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000));
    const cpu = process.cpuUsage(cpuStart);
    const windowEndMs = clock();
    const rssEnd = rssMb();
    await control.call("bench_churn", [false]);
    // Two more polls: every transaction the churn added has been read by a whole poll.
    await waitPolls(2);
    // While the watcher sleeps between polls, its memory still held.
    const heapEnd = heapUsed() / MB;
    controller.abort();
    await watching;
    const state = await control.call<{ watched: WatchedPayment[]; mempoolSize: number; mined: number }>("bench_watched");
    const inWindow = pollTimes.filter((poll) => poll.startedMs >= windowStartMs && poll.endedMs <= windowEndMs);
    return {
      watchedCount,
      firstPollSeconds,
      rss: { before: rssBefore, afterFirstPoll: rssAfterFirstPoll, end: rssEnd, peak },
      heap: { before: heapBefore, inFirstPoll: heapInFirstPoll, afterFirstPoll: heapAfterFirstPoll, end: heapEnd },
      cpuMsPerSecond: (cpu.user + cpu.system) / 1000 / ((windowEndMs - windowStartMs) / 1000),
      windowPolls: inWindow.length,
      pollMedianMs: median(inWindow.map((poll) => poll.endedMs - poll.startedMs)),
      mempoolSizeAtEnd: state.mempoolSize,
      minedInWindow: state.mined,
      expected: state.watched.length,
      ...judgeEvents(index, state.watched, events),
      failedPolls,
    };
  } finally {
    clearInterval(sampler);
    controller.abort();
    await Promise.all([watcherNode.close(), control.close()]);
    await closeStore();
    await database.drop();
    await node.stop();
  }
}
