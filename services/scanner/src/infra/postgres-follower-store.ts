/** The follower's state in Postgres (schema `scanner`): cursor, kept block hashes, matches. */
import type { Coin } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { FollowerStore, StoredMatch } from "../domain/ports.ts";
import type { Match } from "../domain/transfer.ts";
import type { ScannerDatabase } from "./database-schema.ts";

interface MatchRow {
  id: string;
  height: number;
  block_hash: string;
  time_ms: number;
  match: unknown;
  published_confirmations: number | null;
}

const toStored = (row: MatchRow): StoredMatch => ({
  id: row.id,
  match: row.match as Match,
  height: row.height,
  blockHash: row.block_hash,
  timeMs: row.time_ms,
  publishedConfirmations: row.published_confirmations,
});

const MATCH_COLUMNS = ["id", "height", "block_hash", "time_ms", "match", "published_confirmations"] as const;

export function createPostgresFollowerStore(db: Kysely<ScannerDatabase>): FollowerStore {
  return {
    async cursor(coin) {
      const row = await db.selectFrom("blocks").select(["height", "hash"]).where("coin", "=", coin).orderBy("height", "desc").limit(1).executeTakeFirst();
      return row && { height: row.height, hash: row.hash };
    },
    async hashAt(coin, height) {
      const row = await db.selectFrom("blocks").select("hash").where("coin", "=", coin).where("height", "=", height).executeTakeFirst();
      return row?.hash;
    },
    async pendingDue(coin, tipHeight) {
      const rows = await db
        .selectFrom("matches")
        .select(MATCH_COLUMNS)
        .where("coin", "=", coin)
        .where("published_confirmations", "is", null)
        .where("due_height", "<=", tipHeight)
        .orderBy("height")
        .execute();
      return rows.map(toStored);
    },
    async commitBlock(coin: Coin, block, matches, publishedNow, keepFrom) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("blocks")
          .values({ coin, height: block.height, hash: block.hash, parent_hash: block.parentHash, time_ms: block.timeMs })
          .onConflict((c) => c.columns(["coin", "height"]).doUpdateSet({ hash: block.hash, parent_hash: block.parentHash, time_ms: block.timeMs }))
          .execute();
        if (matches.length) {
          await trx
            .insertInto("matches")
            .values(
              matches.map((m) => ({
                id: m.id,
                coin,
                height: m.height,
                block_hash: m.blockHash,
                time_ms: m.timeMs,
                match: JSON.stringify(m.match),
                due_height: m.height + m.match.confirmations - 1,
                published_confirmations: m.publishedConfirmations,
              })),
            )
            .onConflict((c) => c.column("id").doNothing())
            .execute();
        }
        for (const { id, confirmations } of publishedNow) {
          await trx.updateTable("matches").set({ published_confirmations: confirmations }).where("id", "=", id).execute();
        }
        await trx.deleteFrom("blocks").where("coin", "=", coin).where("height", "<", keepFrom).execute();
        await trx.deleteFrom("matches").where("coin", "=", coin).where("height", "<", keepFrom).where("published_confirmations", "is not", null).execute();
      });
    },
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
    async rewindTo(coin, height) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("matches").where("coin", "=", coin).where("height", ">", height).execute();
        await trx.deleteFrom("blocks").where("coin", "=", coin).where("height", ">", height).execute();
      });
    },
  };
}
