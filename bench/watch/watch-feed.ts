/**
 * The registry → scanner watch feed at 1,000,000 addresses (issue 7/8), over real Postgres and
 * NATS with the delivery's outbox relay and the real scanner service:
 * - publish time: a 1,000,000-address webhook committed in the registry → every bucket and its meta
 *   in the stream (the relay raises the level, reads and publishes 1,024 buckets);
 * - the largest message in the stream (target: far under NATS's 1 MB, <= 100 KB);
 * - one address added to it: messages published (target: one bucket + the meta) and the time;
 * - an empty scanner (new database, its own durable) rebuilding projection and index from the
 *   stream alone, against the baseline of a replica loading the index from a projection it
 *   already has (the scanner's own Postgres), measured in the same run;
 * - index memory per watched address, loaded bucket by bucket vs the same addresses as one list
 *   (the pre-bucket layout), same run (target: <= 1.1x).
 */
import { randomBytes } from "node:crypto";
import { createTestDatabase, silentLogger } from "@chaingate/testing";
import { connectBus } from "@chaingate/bus";
import { bucketBitsFor, webhookAddresses, webhookChanged } from "@chaingate/contracts";
// By path: bench/package.json does not list the services or their dependencies.
import { openWatchFeedRegistry } from "@chaingate/delivery/testing";
import { createScannerService, scannerConfigSchema, WatchIndex } from "@chaingate/scanner";
import { openScannerProjection, WEBHOOK_WATCHED_SQL } from "@chaingate/scanner/testing";
import { heapUsed } from "../support/heap-used.ts";

const ADDRESSES = Number(process.env.BENCH_WATCH_ADDRESSES ?? 1_000_000);
const TARGET_LARGEST_BYTES = 100_000;
const TARGET_MEMORY_RATIO = 1.1;
const POLL_MS = 20;

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const ethAddress = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

export async function benchWatchFeed(): Promise<boolean> {
  const natsUrl = process.env.NATS_URL!;
  const namespace = `benchwatch${randomBytes(3).toString("hex")}`;
  const registryDatabase = await createTestDatabase();
  const scannerDatabase = await createTestDatabase();
  const registry = await openWatchFeedRegistry(registryDatabase.connectionString, natsUrl, namespace);
  const bus = await connectBus({ url: natsUrl, name: "bench-watch", logger: silentLogger, namespace });
  await bus.ensureStreams([webhookChanged, webhookAddresses]);
  try {
    // 1. Publish from the outbox.
    const webhookId = await registry.createWebhook(ADDRESSES);
    const publishStarted = process.hrtime.bigint();
    registry.startRelay();
    await until(async () => (await registry.queued()) === 0, "the outbox to empty");
    const publishSeconds = seconds(publishStarted);
    const { state } = await bus.admin.streamInfo(webhookAddresses, { subjects: ">" });
    let largest = 0;
    for (const subject of Object.keys(await bus.admin.subjectCounts(webhookAddresses, ">"))) {
      largest = Math.max(largest, (await bus.admin.lastMessage(webhookAddresses, subject))?.data.length ?? 0);
    }

    // 2. One address more.
    const before = (await bus.admin.streamInfo(webhookAddresses)).state.last_seq;
    const oneStarted = process.hrtime.bigint();
    await registry.addAddress(webhookId, ethAddress(ADDRESSES + 1));
    await until(
      async () => (await registry.queued()) === 0 && (await bus.admin.streamInfo(webhookAddresses)).state.last_seq - before >= 2,
      "the one-address change",
    );
    const oneSeconds = seconds(oneStarted);
    const oneMessages = (await bus.admin.streamInfo(webhookAddresses)).state.last_seq - before;
    const watched = ADDRESSES + 1;

    // 3. An empty scanner rebuilds from the stream alone.
    const rebuildStarted = process.hrtime.bigint();
    const scanner = await createScannerService(
      scannerConfigSchema.parse({
        PORT: "0",
        DATABASE_URL: scannerDatabase.connectionString,
        NATS_URL: natsUrl,
        NATS_NAMESPACE: namespace,
        LOG_LEVEL: "silent",
      }),
      silentLogger,
    );
    const projection = await openScannerProjection(scannerDatabase.connectionString);
    let index: WatchIndex | undefined;
    let projectionSeconds = 0;
    let bucketHeap = 0;
    try {
      await until(
        async () => (await projection.query(WEBHOOK_WATCHED_SQL, [webhookId, 0]))[0]?.address_count === watched,
        "the scanner's projection",
      );
      projectionSeconds = seconds(rebuildStarted);
      const heapBefore = heapUsed();
      index = new WatchIndex();
      await projection.feed().refresh(index);
      bucketHeap = heapUsed() - heapBefore;
    } finally {
      await scanner.close();
    }
    const rebuildSeconds = seconds(rebuildStarted);
    if (index.watchedCount(webhookId) !== watched)
      throw new Error(`the rebuilt index watches ${index.watchedCount(webhookId)} addresses, expected ${watched}`);
    index = undefined;

    // Baseline: a replica loading the index from the projection it already has.
    const baselineStarted = process.hrtime.bigint();
    const reloaded = new WatchIndex();
    await projection.feed().refresh(reloaded);
    const baselineSeconds = seconds(baselineStarted);

    // Memory: the same addresses, read from the same rows, as one list (the layout before buckets).
    const listBefore = heapUsed();
    const whole = new WatchIndex();
    const rows = await projection.query<{ addresses: string[] }>("select addresses from scanner.webhook_buckets where webhook_id = $1", [
      webhookId,
    ]);
    whole.apply({ webhookId, coin: "ETH", addresses: rows.flatMap((row) => row.addresses), isActive: true, deleted: false, version: 1 });
    rows.length = 0;
    const listHeap = heapUsed() - listBefore;
    if (whole.watchedCount(webhookId) !== watched) throw new Error("the one-list index is incomplete");
    await projection.close();

    const bytesBucketed = bucketHeap / watched;
    const bytesList = listHeap / watched;
    const checks = {
      largest: largest <= TARGET_LARGEST_BYTES,
      oneBucket: oneMessages === 2,
      memory: bytesBucketed <= bytesList * TARGET_MEMORY_RATIO,
    };
    const bits = bucketBitsFor(ADDRESSES);
    console.log(
      `watch feed: one webhook of ${ADDRESSES.toLocaleString("en")} ETH addresses (level ${bits}: ${2 ** bits} buckets), real Postgres, NATS, relay and scanner service`,
    );
    console.log(
      `  publish from the outbox: ${publishSeconds.toFixed(2)} s for ${Object.keys(state.subjects ?? {}).length} messages, ${(state.bytes / 1e6).toFixed(1)} MB in the stream; largest message ${(largest / 1e3).toFixed(1)} KB (target <= ${TARGET_LARGEST_BYTES / 1e3} KB; NATS max 1,048.6 KB)`,
    );
    console.log(
      `  one address added: ${oneMessages} messages (target 2: its bucket + the meta) in ${(oneSeconds * 1e3).toFixed(0)} ms from commit`,
    );
    console.log(
      `  empty scanner, stream → projection: ${projectionSeconds.toFixed(2)} s; + index: ${rebuildSeconds.toFixed(2)} s in all; baseline, index from its own Postgres projection: ${baselineSeconds.toFixed(2)} s (ratio ${(rebuildSeconds / baselineSeconds).toFixed(1)})`,
    );
    console.log(
      `  index memory: ${bytesBucketed.toFixed(0)} B per address loaded bucket by bucket vs ${bytesList.toFixed(0)} B as one list (ratio ${(bytesBucketed / bytesList).toFixed(2)}, target <= ${TARGET_MEMORY_RATIO})`,
    );
    for (const [name, ok] of Object.entries(checks)) if (!ok) console.log(`  MISSED: ${name}`);
    return Object.values(checks).every(Boolean);
  } finally {
    await bus.admin.deleteStream(webhookAddresses).catch(() => {});
    await bus.close();
    await registry.close();
    await registryDatabase.drop();
    await scannerDatabase.drop();
  }
}
