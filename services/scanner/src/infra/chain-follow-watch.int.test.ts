/**
 * Every replica's check of each chain, on a real Postgres: followed while some replica renews its
 * lease and not once renewals stop; the lag behind the node's tip now; and the newest processed
 * block's age, which grows while the node gets no blocks although the lag behind it stays 0.
 */
import { silentLogger } from "@chaingate/testing";
import { expect } from "vitest";
import { scannerTest } from "../testing/scanner-fixtures.ts";
import { startChainFollowWatch, type FollowCheck } from "./chain-follow-watch.ts";

const it = scannerTest;

it("reports each chain followed or not, its lag behind the node's tip now, and its newest block's age", async ({ scannerDb: database }) => {
  const now = Date.now();
  await database.db
    .insertInto("blocks")
    .values([
      { coin: "BTC", height: 99, hash: "a", parent_hash: "z", time_ms: now - 700_000 },
      { coin: "BTC", height: 100, hash: "b", parent_hash: "a", time_ms: now - 600_000 },
      { coin: "ETH", height: 7, hash: "c", parent_hash: "y", time_ms: now - 12_000 },
    ])
    .execute();
  // BTC renewed just now; ETH last renewed a minute ago (its holder gone silent); TRX never (no block either).
  await database.db
    .insertInto("lease_renewals")
    .values([
      { name: "scanner:BTC", holder: "a", holder_pid: 1, epoch: 1, renewed_at: new Date() },
      { name: "scanner:ETH", holder: "b", holder_pid: 2, epoch: 1, renewed_at: new Date(now - 60_000) },
    ])
    .execute();
  const checks = new Map<string, FollowCheck>();
  const watch = startChainFollowWatch({
    db: database.db,
    chains: [
      { coin: "BTC", source: { tipHeight: async () => 100 } },
      { coin: "ETH", source: { tipHeight: async () => 10 } },
      { coin: "TRX", source: { tipHeight: async () => Promise.reject(new Error("node down")) } },
    ],
    leaseName: (coin) => `scanner:${coin}`,
    unfollowedAfterMs: 5_000,
    logger: silentLogger,
    onChecked: (coin, check) => checks.set(coin, check),
  });
  try {
    await watch.check();
    expect(checks.get("BTC")).toEqual({ followed: true, lagBlocks: 0, headAgeSeconds: expect.closeTo(600, -1) });
    expect(checks.get("ETH")).toEqual({ followed: false, lagBlocks: 3, headAgeSeconds: expect.closeTo(12, -1) });
    // Never renewed, counted from the watch's start (just now): followed for the first seconds.
    expect(checks.get("TRX")).toEqual({ followed: true, lagBlocks: undefined, headAgeSeconds: undefined });
    expect([...watch.unfollowed().keys()]).toEqual(["ETH"]);
    expect(watch.unfollowed().get("ETH")).toBeGreaterThanOrEqual(60_000);
  } finally {
    watch.close();
  }
});
