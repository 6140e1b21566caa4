/**
 * The follower over its real Postgres store (issue 16): what one replica remembers never hides
 * another's writes after a lease handover, revert counts (generations) survive a restart, and a
 * transfer published just before a crash is on record for the rewind.
 */
import type { Database } from "@chaingate/db";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, vi } from "vitest";
import { followChain } from "./domain/follow-chain.ts";
import type { FollowerStore } from "./domain/ports.ts";
import { WatchIndex, type WatchedWebhook } from "./domain/watch-index.ts";
import type { ScannerDatabase } from "./infra/database-schema.ts";
import { createPostgresFollowerStore } from "./infra/postgres-follower-store.ts";
import { fakeChain, fixedWatchFeed, recordingSink } from "./testing/fake-chain.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";

const it = scannerTest;

/** A replica's store: its own instance (and caches) over the shared database. */
const replica = (database: Database<ScannerDatabase>): FollowerStore => createPostgresFollowerStore(database.db);

const watching = (addresses: string[], extra: Partial<WatchedWebhook> = {}): WatchedWebhook => ({
  webhookId: 1,
  coin: "BTC",
  addresses,
  isActive: true,
  deleted: false,
  version: 1,
  ...extra,
});

async function clearChain(database: Database<ScannerDatabase>) {
  await database.db.deleteFrom("blocks").execute();
  await database.db.deleteFrom("matches").execute();
  await database.db.deleteFrom("reverted_transfers").execute();
}

/** Follows while `done` is false (a lease held for that long). */
async function holdLease(options: Omit<Parameters<typeof followChain>[0], "signal" | "logger" | "watchFeed">, done: () => boolean) {
  const controller = new AbortController();
  const running = followChain({
    ...options,
    watchFeed: fixedWatchFeed(),
    signal: controller.signal,
    logger: silentLogger,
    pollIntervalMs: 10,
  } as Parameters<typeof followChain>[0]);
  await vi.waitFor(() => expect(done()).toBe(true), { timeout: 10_000 });
  controller.abort();
  await running;
}

describe("the follower on Postgres", () => {
  it("a replica that regains the lease publishes a pending match another replica stored meanwhile", async ({ scannerDb: database }) => {
    await clearChain(database);
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 3 }));
    const { sink, published, blocks } = recordingSink();
    const a = replica(database);
    const b = replica(database);
    // A follows first: nothing pending (and it may remember that).
    await holdLease({ chain: spec, index, store: a, sink }, () => blocks.length === 1);
    // A loses the lease; B takes over and stores a match that waits for 3 confirmations.
    mine([["alice", "1"]]);
    await holdLease({ chain: spec, index, store: b, sink }, () => blocks.length === 2);
    expect(published).toEqual([]);
    // A gets the lease back; the block reaches depth 3 under A.
    mine();
    mine();
    await holdLease({ chain: spec, index, store: a, sink }, () => blocks.length === 4);
    expect(published.map((e) => [e.type, e.block.height, e.confirmations])).toEqual([["transfer", 1, 3]]);
  });

  it("A→B→A across a restart: the block back is notified under generation 1, and reverted again under it", async ({
    scannerDb: database,
  }) => {
    await clearChain(database);
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const { sink, published, blocks } = recordingSink();
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.length === 2);
    const a = chain.slice(0, 2);
    chain.length = 1;
    mine([], "b");
    mine([], "b");
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.some((block) => block.hash === "b2"));
    // A new process (nothing in memory) sees a1 come back, then leave again.
    chain.length = 0;
    chain.push(...a);
    mine();
    mine();
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.some((block) => block.hash === "a3"));
    chain.length = 1;
    for (let i = 0; i < 4; i++) mine([], "c");
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.some((block) => block.hash === "c4"));
    expect(published.map((e) => [e.type, e.block.hash, e.generation])).toEqual([
      ["transfer", "a1", 0],
      ["reverted", "a1", 0],
      ["transfer", "a1", 1],
      ["reverted", "a1", 1],
    ]);
    expect(new Set(published.map((e) => e.event_id)).size).toBe(4);
  });

  it("a transfer published by a process that died before storing its block is reverted when that block leaves the chain", async ({
    scannerDb: database,
  }) => {
    await clearChain(database);
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const { sink, published, blocks } = recordingSink();
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    const dying = { ...replica(database), commitBlocks: () => Promise.reject(new Error("killed before the commit")) };
    await holdLease({ chain: spec, index, store: dying, sink }, () => published.length === 1);
    chain.length = 1;
    mine([], "b");
    mine([], "b");
    await holdLease({ chain: spec, index, store: replica(database), sink }, () => blocks.some((block) => block.hash === "b2"));
    expect(published.map((e) => [e.type, e.block.hash])).toEqual([
      ["transfer", "a1"],
      ["reverted", "a1"],
    ]);
  });
});
