/** The follower's state in Postgres (schema `scanner`): cursor, kept block hashes, matches. */
import type { Kysely } from "kysely";
import type { FollowerStore } from "../domain/ports.ts";
import type { ScannerDatabase } from "./database-schema.ts";
import { commitBlocks } from "./postgres-follower-store/commit-blocks.ts";
import type { FollowerStoreContext } from "./postgres-follower-store/follower-store-context.ts";
import { MATCH_COLUMNS, toStored } from "./postgres-follower-store/match-rows.ts";
import { pendingDue } from "./postgres-follower-store/pending-due.ts";
import { recordPublishing } from "./postgres-follower-store/record-publishing.ts";
import { revertMatches, rewindTo } from "./postgres-follower-store/revert-matches.ts";
import { transferGenerations } from "./postgres-follower-store/transfer-generations.ts";

/**
 * Only the lease holder writes a coin's rows, so while it holds the lease the store may remember
 * the lowest due height of its pending matches (skipping the per-block query while nothing is due,
 * almost always) and whether any transfer of the window was ever reverted. Both are forgotten when
 * the lease is (re)acquired: another replica may have written meanwhile.
 */
export function createPostgresFollowerStore(db: Kysely<ScannerDatabase>): FollowerStore {
  const context: FollowerStoreContext = { db, nextDue: new Map(), anyReverts: new Map() };

  return {
    async begin(coin) {
      context.nextDue.delete(coin);
      context.anyReverts.delete(coin);
    },
    async cursor(coin) {
      const row = await db
        .selectFrom("blocks")
        .select(["height", "hash"])
        .where("coin", "=", coin)
        .orderBy("height", "desc")
        .limit(1)
        .executeTakeFirst();
      return row && { height: row.height, hash: row.hash };
    },
    async hashAt(coin, height) {
      const row = await db.selectFrom("blocks").select("hash").where("coin", "=", coin).where("height", "=", height).executeTakeFirst();
      return row?.hash;
    },
    pendingDue: (coin, tipHeight) => pendingDue(context, coin, tipHeight),
    commitBlocks: (coin, blocks, matches, publishedNow, keepFrom) => commitBlocks(context, coin, blocks, matches, publishedNow, keepFrom),
    recordPublishing: (coin, published, publishedNow) => recordPublishing(context, coin, published, publishedNow),
    async blocksMatchedSince(coin, sinceMs) {
      const rows = await db
        .selectFrom("blocks")
        .select(["height", "hash", "matched_at_ms"])
        .where("coin", "=", coin)
        .where("matched_at_ms", ">=", sinceMs)
        .orderBy("height")
        .execute();
      return rows.map((row) => ({ height: row.height, hash: row.hash, matchedAtMs: row.matched_at_ms ?? 0 }));
    },
    generations: (coin, keys) => transferGenerations(context, coin, keys),
    async publishedAbove(coin, height) {
      const rows = await db
        .selectFrom("matches")
        .select(MATCH_COLUMNS)
        .where("coin", "=", coin)
        .where("height", ">", height)
        .where("published_confirmations", "is not", null)
        .orderBy("height")
        .execute();
      return rows.map(toStored);
    },
    rewindTo: (coin, height, reverted) => rewindTo(context, coin, height, reverted),
    revertMatches: (coin, reverted) => revertMatches(context, coin, reverted),
  };
}
