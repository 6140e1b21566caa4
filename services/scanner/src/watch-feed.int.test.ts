/**
 * The registry → scanner watch feed at scale, end to end over real Postgres and NATS: the real
 * delivery service (its registry endpoints and outbox relay) publishes, the real scanner service
 * consumes into its projection, and the watch index is loaded from that projection exactly as the
 * scanner's followers load it.
 */
import { bucketBitsFor, bucketHash, bucketOf, isAddressBucket, isWatermark, webhookAddresses } from "@chaingate/contracts";
import { createDatabase } from "@chaingate/db";
import { createTestDatabase, silentLogger, type TestDatabase } from "@chaingate/testing";
import type { TestBus } from "@chaingate/testing/fixtures";
import type { Kysely } from "kysely";
import pg from "pg";
import { describe, expect } from "vitest";
// Only this test uses the delivery service (a dev dependency), through its package exports.
import type { DeliveryService } from "@chaingate/delivery";
import { observeWatchFeed, startTestDelivery, type WatchFeedObserver } from "@chaingate/delivery/testing";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService, type ScannerService } from "./create-scanner-service.ts";
import { WatchIndex } from "./domain/watch-index.ts";
import { SCANNER_SCHEMA, type ScannerDatabase } from "./infra/database-schema.ts";
import { createPostgresWatchFeed } from "./infra/postgres-watch-projection.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { WEBHOOK_WATCHED_SQL } from "./testing/webhook-watched-sql.ts";

const GROWN_TO = 100_000;
const PER_REQUEST = 10_000;
const MAX_PAYLOAD = 1024 * 1024;
const SPOT_CHECKS = 2_000;
const ethAddress = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

interface Scanner {
  database: TestDatabase;
  service: ScannerService;
  db: Kysely<ScannerDatabase>;
  client: pg.Client;
  close(): Promise<void>;
}

/** A scanner service over its own new database, on the file's bus, and a reader of its projection. */
async function startScanner(bus: TestBus): Promise<Scanner> {
  const database = await createTestDatabase();
  const config = scannerConfigSchema.parse({
    PORT: "0",
    DATABASE_URL: database.connectionString,
    ...bus.env,
    LOG_LEVEL: "silent",
  });
  const service = await createScannerService(config, silentLogger);
  const projection = createDatabase<ScannerDatabase>({
    connectionString: database.connectionString,
    schema: SCANNER_SCHEMA,
    logger: silentLogger,
  });
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  return {
    database,
    service,
    db: projection.db,
    client,
    async close() {
      await client.end();
      await projection.close();
      await service.close();
      await database.drop();
    },
  };
}

/** Resolves when the scanner's projection holds the webhook at this address count, all its buckets included. */
async function waitUntilWatched(scanner: Scanner, webhookId: number, addressCount: number, timeoutMs = 60_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const { rows } = await scanner.client.query<{ address_count: number }>(WEBHOOK_WATCHED_SQL, [webhookId, 0]);
        return rows[0]?.address_count;
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(addressCount);
}

/** The scanner's followers' view: one feed kept across refreshes, as a replica does. */
interface FollowerView {
  index: WatchIndex;
  refresh(): Promise<void>;
}

const webhooks: Record<"big" | "btc" | "trx" | "inactive", number> = { big: 0, btc: 0, trx: 0, inactive: 0 };

async function call(
  delivery: DeliveryService,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data: Record<string, unknown> } }> {
  const response = await fetch(`${delivery.url}${path}`, {
    method,
    headers: {
      "x-chaingate-account-id": "1",
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/**
 * The registry (the delivery service over the file's database), an observer of the feed it
 * publishes, the scanner consuming it and its followers' view, all on the file's bus; they start
 * in this order when a test first names them.
 */
const it = scannerTest.extend<{ delivery: DeliveryService; observer: WatchFeedObserver; scanner: Scanner; view: FollowerView }>({
  delivery: [
    async ({ database, bus }, use) => {
      const delivery = await startTestDelivery(database.connectionString, bus.env);
      try {
        await use(delivery);
      } finally {
        await delivery.close();
      }
    },
    { scope: "file" },
  ],
  observer: [
    async ({ bus }, use) => {
      const observer = await observeWatchFeed(bus.url, bus.namespace);
      try {
        await use(observer);
      } finally {
        await observer.close();
      }
    },
    { scope: "file" },
  ],
  scanner: [
    async ({ bus }, use) => {
      const scanner = await startScanner(bus);
      try {
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
  view: [
    async ({ scanner }, use) => {
      const index = new WatchIndex();
      const feed = createPostgresWatchFeed(scanner.db);
      await use({ index, refresh: async () => void (await feed.refresh(index)) });
    },
    { scope: "file" },
  ],
});

describe("the watch feed, registry to scanner", () => {
  it(`a webhook grown to ${GROWN_TO.toLocaleString("en")} addresses through the batch endpoints reaches the scanner's index; every message stays far under 1 MB`, async ({
    delivery,
    observer,
    scanner,
    view: { index, refresh },
  }) => {
    const created = await call(delivery, "POST", "/api/v1/webhooks", {
      coin: "ETH",
      webhook_url: "http://93.184.216.34/hook",
      addresses: Array.from({ length: PER_REQUEST }, (_, i) => ethAddress(i + 1)),
      confirmations: 12,
      include_tokens: true,
    });
    expect(created.status).toBe(201);
    webhooks.big = created.body.data.id as number;
    for (let start = PER_REQUEST; start < GROWN_TO; start += PER_REQUEST) {
      const added = await call(delivery, "POST", `/api/v1/webhooks/${webhooks.big}/addresses`, {
        addresses: Array.from({ length: PER_REQUEST }, (_, i) => ethAddress(start + i + 1)),
      });
      expect(added.body.data).toEqual({ added: PER_REQUEST, total: start + PER_REQUEST });
    }
    webhooks.btc = (
      await call(delivery, "POST", "/api/v1/webhooks", {
        coin: "BTC",
        webhook_url: "http://93.184.216.34/hook",
        addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
        confirmations: 3,
      })
    ).body.data.id as number;
    webhooks.trx = (
      await call(delivery, "POST", "/api/v1/webhooks", {
        coin: "TRX",
        webhook_url: "http://93.184.216.34/hook",
        addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
      })
    ).body.data.id as number;
    webhooks.inactive = (
      await call(delivery, "POST", "/api/v1/webhooks", {
        coin: "ETH",
        webhook_url: "http://93.184.216.34/hook",
        // Its own address: an inactive webhook is still matched (its events are held), so it must not share the big one's.
        addresses: [ethAddress(990_001)],
        is_active: false,
      })
    ).body.data.id as number;

    await waitUntilWatched(scanner, webhooks.big, GROWN_TO);
    for (const id of [webhooks.btc, webhooks.trx, webhooks.inactive]) await waitUntilWatched(scanner, id, 1);
    await refresh();
    expect(index.watchedCount(webhooks.big)).toBe(GROWN_TO);
    for (let n = 0; n < SPOT_CHECKS; n++) {
      const i = 1 + Math.floor(Math.random() * GROWN_TO);
      expect(index.watchers("ETH", ethAddress(i)), ethAddress(i)).toBe(webhooks.big);
    }
    expect(index.watchers("ETH", ethAddress(GROWN_TO + 1))).toBeUndefined();
    expect(index.settings(webhooks.big)).toMatchObject({ confirmations: 12, includeTokens: true });
    expect(index.watchers("BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBe(webhooks.btc);
    // Inactive, still matched: its events are stored held by the delivery, pushed or skipped when it is enabled.
    expect(index.watchedCount(webhooks.inactive)).toBe(1);

    const meta = observer.stateOf(webhooks.big).meta;
    expect(meta).toMatchObject({ address_count: GROWN_TO, bucket_bits: bucketBitsFor(GROWN_TO) });
    const largest = Math.max(...observer.messages.map((m) => m.bytes));
    expect(largest).toBeLessThan(MAX_PAYLOAD / 10);
  }, 180_000);

  it("a scanner that starts empty (new database, its own durable consumer) rebuilds the same watch set from the stream alone", async ({
    bus,
    delivery,
    view: { index },
  }) => {
    const versionsBefore = (await call(delivery, "GET", `/api/v1/webhooks?per_page=500`)).body.data;
    const fresh = await startScanner(bus);
    try {
      await waitUntilWatched(fresh, webhooks.big, GROWN_TO);
      for (const id of [webhooks.btc, webhooks.trx, webhooks.inactive]) await waitUntilWatched(fresh, id, 1);
      const rebuilt = new WatchIndex();
      await createPostgresWatchFeed(fresh.db).refresh(rebuilt);
      for (const id of Object.values(webhooks)) expect(rebuilt.watchedCount(id)).toBe(index.watchedCount(id));
      for (let i = 1; i <= GROWN_TO; i++)
        if (rebuilt.watchers("ETH", ethAddress(i)) !== webhooks.big) expect.fail(`${ethAddress(i)} is not watched after the rebuild`);
      expect(rebuilt.settings(webhooks.btc)).toEqual(index.settings(webhooks.btc));
      expect(rebuilt.watchers("TRX", "a614f803b6fd780986a42c78ec9c7f77e6ded13c")).toBe(webhooks.trx);
    } finally {
      await fresh.close();
    }
    // The registry was not touched meanwhile: nothing was republished for the new scanner.
    expect((await call(delivery, "GET", `/api/v1/webhooks?per_page=500`)).body.data).toEqual(versionsBefore);
  }, 180_000);
});

describe("the watch feed, registry to scanner: changes to a webhook", () => {
  it("one added address publishes its bucket alone; a removed address stops matching; a PUT of the list leaves only the new addresses", async ({
    delivery,
    observer,
    scanner,
    view: { index, refresh },
  }) => {
    const seen = observer.messages.length;
    const added = ethAddress(GROWN_TO + 7);
    expect((await call(delivery, "POST", `/api/v1/webhooks/${webhooks.big}/addresses`, { addresses: [added] })).body.data).toEqual({
      added: 1,
      total: GROWN_TO + 1,
    });
    await waitUntilWatched(scanner, webhooks.big, GROWN_TO + 1);
    await expect.poll(() => observer.stateOf(webhooks.big).meta?.address_count, { timeout: 10_000 }).toBe(GROWN_TO + 1);
    const published = observer.messages
      .slice(seen)
      .filter((m) => !isWatermark(m.payload) && m.payload.webhook_id === webhooks.big)
      .map((m) => m.payload);
    const bits = bucketBitsFor(GROWN_TO);
    expect(published.map((p) => (isAddressBucket(p) ? `bucket ${p.bucket}` : "meta"))).toEqual([
      `bucket ${bucketOf(bucketHash(added), bits)}`,
      "meta",
    ]);
    await refresh();
    expect(index.watchers("ETH", added)).toBe(webhooks.big);

    const removed = ethAddress(4_242);
    expect((await call(delivery, "DELETE", `/api/v1/webhooks/${webhooks.big}/addresses`, { addresses: [removed] })).body.data).toEqual({
      removed: 1,
      total: GROWN_TO,
    });
    await waitUntilWatched(scanner, webhooks.big, GROWN_TO);
    await refresh();
    expect(index.watchers("ETH", removed)).toBeUndefined();
    expect(index.watchers("ETH", ethAddress(4_243))).toBe(webhooks.big);
    expect(index.watchedCount(webhooks.big)).toBe(GROWN_TO);

    const replacement = [ethAddress(900_001), ethAddress(900_002), ethAddress(900_003)];
    expect((await call(delivery, "PUT", `/api/v1/webhooks/${webhooks.big}`, { addresses: replacement })).status).toBe(200);
    await waitUntilWatched(scanner, webhooks.big, 3);
    await refresh();
    expect(index.watchedCount(webhooks.big)).toBe(3);
    for (const address of replacement) expect(index.watchers("ETH", address)).toBe(webhooks.big);
    for (const i of [1, 5_000, 50_000, GROWN_TO]) expect(index.watchers("ETH", ethAddress(i))).toBeUndefined();
    expect(observer.stateOf(webhooks.big).addresses).toEqual(replacement);
  }, 120_000);

  it("a deleted webhook is gone from the index and its bucket messages are removed from the stream", async ({
    delivery,
    observer,
    scanner,
    view: { index, refresh },
  }) => {
    const bucketSubjects = async () =>
      Object.keys(
        (await observer.bus.admin.streamInfo(webhookAddresses, { subjects: `webhook.addresses.${webhooks.big}.>` })).state.subjects ?? {},
      ).length;
    expect(await bucketSubjects()).toBeGreaterThan(0);
    expect((await call(delivery, "DELETE", `/api/v1/webhooks/${webhooks.big}`)).status).toBe(204);
    await expect
      .poll(
        async () =>
          (await scanner.client.query(`select deleted from scanner.webhooks where webhook_id = $1`, [webhooks.big])).rows[0]?.deleted,
        { timeout: 10_000 },
      )
      .toBe(true);
    await refresh();
    expect(index.watchedCount(webhooks.big)).toBe(0);
    expect(index.watchers("ETH", ethAddress(900_001))).toBeUndefined();
    await expect.poll(bucketSubjects, { timeout: 10_000 }).toBe(0);
    const { rows } = await scanner.client.query(`select count(*)::int as n from scanner.webhook_buckets where webhook_id = $1`, [
      webhooks.big,
    ]);
    expect(rows[0].n).toBe(0);
  }, 60_000);
});
