/**
 * The scanner's registry projection over a real Postgres: what the watch feed's messages leave in
 * it, whatever order and however often they arrive, and what a replica's index loads from it.
 */
import { randomBytes } from "node:crypto";
import type { EventPayload, webhookAddresses, webhookChanged, WebhookFeedMessage } from "@chaingate/contracts";
import { createDatabase, migrateToLatest } from "@chaingate/db";
import { createTestDatabase, silentLogger } from "@chaingate/testing";
import { sql, type Kysely } from "kysely";
import { describe, expect } from "vitest";
import { WatchIndex } from "../domain/watch-index.ts";
import { scannerTest } from "../testing/scanner-fixtures.ts";
import type { ScannerDatabase } from "./database-schema.ts";
import { scannerMigrations } from "./migrations/index.ts";
import { createPostgresWatchFeed, storeFeedMessage } from "./postgres-watch-projection.ts";

type Meta = EventPayload<typeof webhookChanged>;
type Bucket = EventPayload<typeof webhookAddresses>;

const it = scannerTest;

const meta = (webhookId: number, version: number, overrides: Partial<Meta> = {}): Meta => ({
  webhook_id: webhookId,
  coin: "BTC",
  is_active: true,
  deleted: false,
  version,
  confirmations: 1,
  include_tokens: false,
  address_count: 0,
  bucket_bits: 2,
  ...overrides,
});
const bucket = (webhookId: number, version: number, index: number, addresses: string[], bits = 2): Bucket => ({
  webhook_id: webhookId,
  coin: "BTC",
  bucket_bits: bits,
  bucket: index,
  version,
  addresses,
});
const store = async (db: Kysely<ScannerDatabase>, ...messages: WebhookFeedMessage[]) => {
  for (const message of messages) await storeFeedMessage(db, message);
};
/** What a replica that starts now would watch for `webhookId`. */
async function freshIndex(db: Kysely<ScannerDatabase>): Promise<WatchIndex> {
  const index = new WatchIndex();
  await createPostgresWatchFeed(db).refresh(index);
  return index;
}
const watchedOf = (index: WatchIndex, addresses: readonly string[]) =>
  addresses.filter((address) => index.watchers("BTC", address) !== undefined).sort();

describe("the watch projection", () => {
  it("ends at the newest state whatever order, duplicates and stale copies the messages come in", async ({ scannerDb: { db } }) => {
    const id = 100;
    // Twenty registry versions of four buckets; each version changes one bucket.
    const states: Bucket[] = [];
    const current: string[][] = [[], [], [], []];
    for (let version = 1; version <= 20; version++) {
      const which = version % 4;
      current[which] = Array.from({ length: 1 + (version % 3) }, (_, i) => `addr-${which}-${version}-${i}`);
      states.push(bucket(id, version, which, current[which]!));
    }
    const everything: WebhookFeedMessage[] = [
      ...states,
      ...states.slice(0, 10),
      meta(id, 20, { address_count: current.flat().length, confirmations: 7 }),
      meta(id, 12, { confirmations: 3 }),
    ];
    everything.sort(() => Math.random() - 0.5);
    await store(db, ...everything);
    const index = await freshIndex(db);
    const allAddresses = states.flatMap((s) => s.addresses);
    expect(watchedOf(index, allAddresses)).toEqual(current.flat().sort());
    expect(index.settings(id)?.confirmations).toBe(7);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_buckets where webhook_id = ${id}`.execute(db);
    expect(rows[0]!.n).toBe(4);
  });

  it("drops a deleted webhook, and keeps it dropped whatever bucket or older meta arrives later", async ({ scannerDb: { db } }) => {
    const id = 101;
    await store(db, bucket(id, 1, 0, ["d-a"]), meta(id, 1, { address_count: 1 }));
    expect(watchedOf(await freshIndex(db), ["d-a"])).toEqual(["d-a"]);
    await store(
      db,
      meta(id, 2, { deleted: true }),
      bucket(id, 3, 1, ["d-late"]),
      bucket(id, 1, 0, ["d-a"]),
      meta(id, 1, { address_count: 1 }),
    );
    expect(watchedOf(await freshIndex(db), ["d-a", "d-late"])).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_buckets where webhook_id = ${id}`.execute(db);
    expect(rows[0]!.n).toBe(0);
  });

  it("moves a webhook to a higher level when its meta arrives: the new level's buckets replace the old ones, late old-level ones are ignored", async ({
    scannerDb: { db },
  }) => {
    const id = 102;
    await store(db, bucket(id, 1, 0, ["l-a", "l-b", "l-c"], 0), meta(id, 1, { bucket_bits: 0, address_count: 3 }));
    const replica = createPostgresWatchFeed(db);
    const index = new WatchIndex();
    await replica.refresh(index);
    expect(watchedOf(index, ["l-a", "l-b", "l-c", "l-d"])).toEqual(["l-a", "l-b", "l-c"]);
    // The raise: every new-level bucket first (the old level still watched meanwhile), then the meta.
    await store(db, bucket(id, 2, 1, ["l-a", "l-d"], 3), bucket(id, 2, 6, ["l-c"], 3));
    await replica.refresh(index);
    expect(watchedOf(index, ["l-a", "l-b", "l-c", "l-d"])).toEqual(["l-a", "l-b", "l-c"]);
    await store(db, meta(id, 2, { bucket_bits: 3, address_count: 3 }), bucket(id, 1, 0, ["l-b"], 0));
    await replica.refresh(index);
    expect(watchedOf(index, ["l-a", "l-b", "l-c", "l-d"])).toEqual(["l-a", "l-c", "l-d"]);
    expect(watchedOf(await freshIndex(db), ["l-a", "l-b", "l-c", "l-d"])).toEqual(["l-a", "l-c", "l-d"]);
  });

  it("a replica's refresh applies what changed since its last one; unwatching and watching again reload the webhook", async ({
    scannerDb: { db },
  }) => {
    const id = 103;
    await store(db, bucket(id, 1, 0, ["r-a"]), bucket(id, 1, 1, ["r-b"]), meta(id, 1, { address_count: 2 }));
    const replica = createPostgresWatchFeed(db);
    const index = new WatchIndex();
    await replica.refresh(index);
    expect(watchedOf(index, ["r-a", "r-b", "r-c"])).toEqual(["r-a", "r-b"]);
    await store(db, bucket(id, 2, 1, ["r-c"]), meta(id, 2, { address_count: 2 }));
    await replica.refresh(index);
    expect(watchedOf(index, ["r-a", "r-b", "r-c"])).toEqual(["r-a", "r-c"]);
    await store(db, meta(id, 3, { is_active: false, address_count: 2 }));
    await replica.refresh(index);
    expect(watchedOf(index, ["r-a", "r-b", "r-c"])).toEqual([]);
    await store(db, bucket(id, 4, 0, ["r-d"]), meta(id, 5, { address_count: 2 }));
    await replica.refresh(index);
    expect(watchedOf(index, ["r-a", "r-b", "r-c", "r-d"])).toEqual(["r-c", "r-d"]);
    // The registry now says `watch: true` for an inactive webhook (its events are held, not lost): still matched.
    await store(db, meta(id, 6, { is_active: false, watch: true, address_count: 2 }));
    await replica.refresh(index);
    expect(watchedOf(index, ["r-a", "r-b", "r-c", "r-d"])).toEqual(["r-c", "r-d"]);
    expect(watchedOf(await freshIndex(db), ["r-a", "r-b", "r-c", "r-d"])).toEqual(["r-c", "r-d"]);
    await store(db, meta(id, 7, { is_active: false, watch: false, address_count: 2 }));
    await replica.refresh(index);
    expect(watchedOf(index, ["r-c", "r-d"])).toEqual([]);
  });

  it("refreshes of followers sharing one index take turns and end up equal to a fresh load", async ({ scannerDb: { db } }) => {
    const replica = createPostgresWatchFeed(db);
    const index = new WatchIndex();
    await replica.refresh(index);
    const id = 104;
    const writes = (async () => {
      for (let version = 1; version <= 30; version++)
        await store(db, bucket(id, version, version % 4, [`t-${version}`]), meta(id, version, { address_count: 4 }));
    })();
    const refreshes = (async () => {
      for (let i = 0; i < 30; i++) await Promise.all([replica.refresh(index), replica.refresh(index), replica.refresh(index)]);
    })();
    await Promise.all([writes, refreshes]);
    await replica.refresh(index);
    const names = Array.from({ length: 30 }, (_, i) => `t-${i + 1}`);
    expect(watchedOf(index, names)).toEqual(watchedOf(await freshIndex(db), names));
    expect(watchedOf(index, names)).toEqual(["t-27", "t-28", "t-29", "t-30"]);
  });
});

describe("the projection migration (0002)", () => {
  it("turns a webhook of the old whole-state form into a level-0 bucket the index watches, until the republished feed replaces it", async () => {
    const legacy = await createTestDatabase();
    const schema = `scan${randomBytes(3).toString("hex")}`;
    const opened = createDatabase<ScannerDatabase>({ connectionString: legacy.connectionString, schema, logger: silentLogger });
    try {
      await migrateToLatest(opened.db, schema, { "0001-follower-state": scannerMigrations["0001-follower-state"]! });
      await sql`insert into webhooks (webhook_id, coin, addresses, is_active, deleted, version) values
        (1, 'BTC', '["m-a", "m-b"]', true, false, 10), (2, 'BTC', '["m-gone"]', true, true, 4)`.execute(opened.db);
      await migrateToLatest(opened.db, schema, scannerMigrations);
      const index = new WatchIndex();
      await createPostgresWatchFeed(opened.db).refresh(index);
      expect(watchedOf(index, ["m-a", "m-b", "m-gone"])).toEqual(["m-a", "m-b"]);
      // The registry republishes at version 11: one address left, the webhook at level 0.
      await storeFeedMessage(opened.db, bucket(1, 11, 0, ["m-b"], 0));
      await storeFeedMessage(opened.db, meta(1, 11, { bucket_bits: 0, address_count: 1 }));
      const after = new WatchIndex();
      await createPostgresWatchFeed(opened.db).refresh(after);
      expect(watchedOf(after, ["m-a", "m-b", "m-gone"])).toEqual(["m-b"]);
    } finally {
      await opened.close();
      await legacy.drop();
    }
  });

  it("keeps the newest watermark, and queues a rescan for the addresses a message makes watched (with its since), not for those already held", async ({
    scannerDb: { db },
  }) => {
    const feed = createPostgresWatchFeed(db);
    const index = new WatchIndex();
    // What the earlier tests queued is done.
    await feed.finishRescans((await feed.refresh(index)).rescans.map((job) => job.id));
    await store(db, { registry_time: "2026-11-25T07:00:02.000Z" }, { registry_time: "2026-11-25T07:00:01.000Z" });
    const id = 300;
    const since = "2026-11-25T06:59:00.000Z";
    // A new webhook: its bucket then its meta (it starts being watched).
    await store(db, { ...bucket(id, 1, 0, ["r1", "r2"], 0), since }, { ...meta(id, 1, { bucket_bits: 0 }), since });
    let state = await feed.refresh(index);
    expect(state.watermarkMs).toBe(Date.parse("2026-11-25T07:00:02.000Z"));
    expect(state.rescans.map((job) => [job.webhookId, job.addresses, job.sinceMs])).toEqual([
      [id, ["r1", "r2"], Date.parse(since)],
      [id, null, Date.parse(since)],
    ]);
    await feed.finishRescans(state.rescans.map((job) => job.id));
    // One address added (and one stale copy of the old version): only the new address is queued.
    await store(db, { ...bucket(id, 2, 0, ["r1", "r2", "r3"], 0), since: "2026-11-25T07:01:00.000Z" }, bucket(id, 1, 0, ["r1", "r2"], 0));
    state = await feed.refresh(index);
    expect(state.rescans.map((job) => [job.addresses, new Date(job.sinceMs).toISOString()])).toEqual([
      [["r3"], "2026-11-25T07:01:00.000Z"],
    ]);
    await feed.finishRescans(state.rescans.map((job) => job.id));
    // A level raise re-publishes every address at the new level: only the one new address is queued.
    await store(
      db,
      bucket(id, 3, 0, ["r1", "r3"], 1),
      { ...bucket(id, 3, 1, ["r2", "r4"], 1), since: "2026-11-25T07:02:00.000Z" },
      meta(id, 3, { bucket_bits: 1 }),
    );
    state = await feed.refresh(index);
    expect(state.rescans.map((job) => job.addresses)).toEqual([["r4"]]);
    await feed.finishRescans(state.rescans.map((job) => job.id));
    // Deactivated, then active again: the whole webhook is queued from the activation's since.
    await store(db, meta(id, 4, { bucket_bits: 1, is_active: false }), {
      ...meta(id, 5, { bucket_bits: 1 }),
      since: "2026-11-25T07:03:00.000Z",
    });
    state = await feed.refresh(index);
    expect(state.rescans.map((job) => [job.addresses, new Date(job.sinceMs).toISOString()])).toEqual([[null, "2026-11-25T07:03:00.000Z"]]);
    await feed.finishRescans(state.rescans.map((job) => job.id));
    expect((await feed.refresh(index)).rescans).toEqual([]);
  });

  it("queues no rescan for a chain this scanner does not follow", async ({ scannerDb: { db } }) => {
    const feed = createPostgresWatchFeed(db);
    await storeFeedMessage(db, { ...bucket(301, 1, 0, ["e1"], 0), coin: "ETH" }, { rescanCoins: new Set(["BTC"]) });
    expect((await feed.refresh(new WatchIndex())).rescans.filter((job) => job.webhookId === 301)).toEqual([]);
  });
});
