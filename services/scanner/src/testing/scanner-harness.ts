/**
 * A scanner under test with its own database and NATS namespace, and a recorder of what it
 * publishes (transfer.matched, block.processed) read back through durable consumers. It also
 * stands in for the registry, publishing the watch feed as the delivery's relay does, with a
 * watermark heartbeat (every WATERMARK_EVERY_MS, after any change in flight) so the scanner's
 * followers do not wait for the feed.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus, type Consumption } from "@chaingate/bus";
import {
  blockProcessed,
  bucketBitsFor,
  bucketHash,
  bucketOf,
  defaultIncludeTokens,
  DEFAULT_CONFIRMATIONS,
  isBlockTransfer,
  transferMatched,
  webhookAddresses,
  webhookChanged,
  webhookWatermark,
  type BlockTransferPayload,
  type EventPayload,
  type MempoolTransferPayload,
} from "@chaingate/contracts";
import { createTestDatabase, silentLogger, type TestDatabase } from "@chaingate/testing";
import pg from "pg";
import type { ScannerService } from "../create-scanner-service.ts";
import { startTestScanner } from "./start-test-scanner.ts";
import { WEBHOOK_WATCHED_SQL } from "./webhook-watched-sql.ts";

export type TransferMatched = BlockTransferPayload;
export type MempoolMatched = MempoolTransferPayload;
export type BlockProcessed = EventPayload<typeof blockProcessed>;
export type WebhookChanged = EventPayload<typeof webhookChanged>;

/** A registry change as a test states it: the webhook's whole address list and any settings. */
export type FakeRegistryChange = Partial<Omit<WebhookChanged, "address_count" | "bucket_bits">> &
  Pick<WebhookChanged, "webhook_id" | "coin"> & { addresses: string[] };

export interface EventRecorder {
  bus: Bus;
  namespace: string;
  /** The blocks' transfers and reverts, in stream order. */
  transfers: TransferMatched[];
  /** Mempool events, in stream order. */
  mempool: MempoolMatched[];
  /** Every `transfer.matched`, both kinds, in stream order. */
  all: Array<TransferMatched | MempoolMatched>;
  blocks: BlockProcessed[];
  /**
   * Publishes the webhook's buckets (every bucket of its level, empty ones too, so earlier
   * addresses go) and then its meta, as the registry's relay does.
   */
  publishWebhook(change: FakeRegistryChange): Promise<void>;
  waitFor(description: string, condition: () => boolean, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once every `transfer.matched` in the stream now is in `transfers`. Blocks and transfers
   * are two streams read by two consumers, so a block is added to `blocks` only after this: a test
   * that saw a block reads every transfer published before it.
   */
  transfersCaughtUp(timeoutMs?: number): Promise<void>;
  /** Stops (or resumes) the watermark heartbeat: a registry whose feed stalled. */
  pauseWatermarks(paused: boolean): void;
  close(): Promise<void>;
}

const WATERMARK_EVERY_MS = 200;

export async function startEventRecorder(
  natsUrl = process.env.NATS_URL!,
  namespace = `scan${randomBytes(4).toString("hex")}`,
): Promise<EventRecorder> {
  const bus = await connectBus({ url: natsUrl, name: "scanner-test", logger: silentLogger, namespace });
  await bus.ensureStreams([transferMatched, blockProcessed, webhookChanged, webhookAddresses]);
  const transfers: TransferMatched[] = [];
  const mempool: MempoolMatched[] = [];
  const all: Array<TransferMatched | MempoolMatched> = [];
  const blocks: BlockProcessed[] = [];
  /** See EventRecorder.transfersCaughtUp. */
  const transfersCaughtUp = (timeoutMs = 20_000) => bus.waitUntilConsumed(transferMatched, "test-transfers", { timeoutMs, pollMs: 20 });
  const consumptions: Consumption[] = [
    await bus.consume(transferMatched, {
      durable: "test-transfers",
      handle: async (event) => {
        all.push(event);
        if (isBlockTransfer(event)) transfers.push(event);
        else mempool.push(event);
      },
    }),
    // A block is recorded once the transfers published before it are: a test that saw the block reads them all.
    await bus.consume(blockProcessed, {
      durable: "test-blocks",
      handle: async (event) => {
        await transfersCaughtUp();
        blocks.push(event);
      },
    }),
  ];
  let version = 0;
  /** Levels only grow, as in the registry. */
  const levels = new Map<number, number>();
  /** Changes and watermarks take turns: a watermark never overtakes a change made before it. */
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work);
    turn = run.catch(() => {});
    return run;
  };
  let watermarksPaused = false;
  const heartbeat = setInterval(() => {
    if (watermarksPaused) return;
    // A NATS outage in a test: the next beat tries again.
    void inTurn(() => bus.publish(webhookWatermark, { registry_time: new Date().toISOString() })).catch(() => {});
  }, WATERMARK_EVERY_MS);
  return {
    bus,
    namespace,
    transfers,
    mempool,
    all,
    blocks,
    publishWebhook: (change) => inTurn(() => publishChange(change)),
    pauseWatermarks(paused) {
      watermarksPaused = paused;
    },
    async waitFor(description, condition, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    transfersCaughtUp,
    async close() {
      clearInterval(heartbeat);
      await turn;
      for (const consumption of consumptions) await consumption.stop();
      await bus.close();
    },
  };

  async function publishChange({ addresses, ...change }: FakeRegistryChange): Promise<void> {
    const current = ++version;
    const bits = Math.max(levels.get(change.webhook_id) ?? 0, bucketBitsFor(addresses.length));
    levels.set(change.webhook_id, bits);
    const buckets = Array.from({ length: 2 ** bits }, () => [] as string[]);
    for (const address of addresses) buckets[bucketOf(bucketHash(address), bits)]!.push(address);
    for (const [bucket, list] of buckets.entries()) {
      await bus.publish(webhookAddresses, {
        webhook_id: change.webhook_id,
        coin: change.coin,
        bucket_bits: bits,
        bucket,
        version: current,
        addresses: list,
        ...(change.since ? { since: change.since } : {}),
      });
    }
    await bus.publish(webhookChanged, {
      is_active: true,
      deleted: false,
      confirmations: DEFAULT_CONFIRMATIONS,
      include_tokens: defaultIncludeTokens(change.coin),
      ...change,
      version: current,
      address_count: addresses.length,
      bucket_bits: bits,
    });
  }
}

/** Resolves once the scanner's projection holds the webhook and all its addresses (see WEBHOOK_WATCHED_SQL). */
export async function waitForWebhookStored(connectionString: string, webhookId: number, timeoutMs = 10_000, minVersion = 0): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rowCount } = await client.query(WEBHOOK_WATCHED_SQL, [webhookId, minVersion]);
      if (rowCount) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`webhook ${webhookId} never reached the scanner's projection`);
  } finally {
    await client.end();
  }
}

/**
 * A scanner service in this process with a database and a recorder (NATS namespace) of its own,
 * polling every 100 ms, following the chains `env` gives a node for (e.g. `{ TRON_NODE_URL }`).
 */
export async function startScannerUnderTest(
  env: Record<string, string>,
): Promise<{ database: TestDatabase; recorder: EventRecorder; scanner: ScannerService }> {
  const [database, recorder] = await Promise.all([createTestDatabase(), startEventRecorder()]);
  return { database, recorder, scanner: await startTestScanner(database, recorder, env) };
}

export type ScannerUnderTest = Awaited<ReturnType<typeof startScannerUnderTest>>;

/** Closes what startScannerUnderTest started (any part may be missing after a failed start). */
export async function stopScannerUnderTest(under: Partial<ScannerUnderTest> | undefined): Promise<void> {
  await under?.scanner?.close();
  await under?.recorder?.close();
  await under?.database?.drop();
}

/** The scanner's Prometheus text. */
export const scrapeMetrics = async (scanner: ScannerService): Promise<string> => (await fetch(`${scanner.url}/metrics`)).text();

/** The scanner's `/readyz` body. */
export const readyzOf = async (scanner: ScannerService) =>
  (await (await fetch(`${scanner.url}/readyz`)).json()) as { status: string; degraded?: Record<string, string> };

/** Polls an asynchronous condition every 50 ms. */
export async function waitUntil(description: string, condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits for the scanner's first processed block. A follower whose first pass came before the
 * registry's first watermark sleeps its poll interval (long in push tests): `nudge` (mine or
 * announce a block) every second wakes it instead.
 */
export async function waitForFirstBlock(recorder: EventRecorder, nudge: () => Promise<unknown>, timeoutMs = 30_000): Promise<void> {
  await waitUntil(
    "the first processed block",
    async () => {
      if (recorder.blocks.length > 0) return true;
      await nudge();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return recorder.blocks.length > 0;
    },
    timeoutMs,
  );
}
