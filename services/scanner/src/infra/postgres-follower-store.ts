/** The follower's state in Postgres (schema `scanner`): cursor, kept block hashes, matches. */
import type { Coin } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
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

/** Old blocks and matches are pruned every this many blocks (a cheap statement, not free). */
const PRUNE_EVERY_BLOCKS = 16;

/**
 * Only the lease holder writes a coin's rows, so the store may remember the lowest due height of
 * its pending matches and skip the per-block query while nothing is due (almost always).
 */
export function createPostgresFollowerStore(db: Kysely<ScannerDatabase>): FollowerStore {
  /** Per coin: the lowest due height of the stored pending matches (Infinity: none); absent: unknown. */
  const nextDue = new Map<Coin, number>();
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
      const known = nextDue.get(coin);
      if (known !== undefined && tipHeight < known) return [];
      const rows = await db
        .selectFrom("matches")
        .select([...MATCH_COLUMNS, "due_height"])
        .where("coin", "=", coin)
        .where("published_confirmations", "is", null)
        .orderBy("height")
        .execute();
      // The lowest due height of all pending rows: while it is above the tip nothing is due.
      nextDue.set(coin, Math.min(Infinity, ...rows.map((row) => row.due_height)));
      return rows.filter((row) => row.due_height <= tipHeight).map(toStored);
    },
    async commitBlocks(coin: Coin, blocks, matches, publishedNow, keepFrom) {
      const rows = matches.map((m) => ({
        id: m.id,
        height: m.height,
        block_hash: m.blockHash,
        time_ms: m.timeMs,
        match: m.match,
        due_height: m.height + m.match.confirmations - 1,
        published_confirmations: m.publishedConfirmations,
      }));
      const blockRows = blocks.map((b) => ({ height: b.height, hash: b.hash, parent_hash: b.parentHash, time_ms: b.timeMs }));
      const prune = blocks.some((b) => b.height % PRUNE_EVERY_BLOCKS === 0);
      // One statement, one round trip, one implicit transaction. Not waiting for the WAL flush
      // (synchronous_commit off, for this transaction only) is safe: a commit lost to a database
      // crash only moves the cursor back, and re-processing the block publishes the same
      // deterministic event ids (dropped as duplicates) and stores the same rows.
      await sql`
        with settings as (select set_config('synchronous_commit', 'off', true)),
        block as (
          insert into blocks (coin, height, hash, parent_hash, time_ms)
          select ${coin}, height, hash, parent_hash, time_ms
          from jsonb_to_recordset(${JSON.stringify(blockRows)}::jsonb) as b(height bigint, hash text, parent_hash text, time_ms bigint)
          on conflict (coin, height) do update set hash = excluded.hash, parent_hash = excluded.parent_hash, time_ms = excluded.time_ms
        ),
        new_matches as (
          insert into matches (id, coin, height, block_hash, time_ms, match, due_height, published_confirmations)
          select id, ${coin}, height, block_hash, time_ms, match, due_height, published_confirmations
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as m(id text, height bigint, block_hash text, time_ms bigint, match jsonb, due_height bigint, published_confirmations integer)
          on conflict (id) do nothing
        ),
        published as (
          update matches set published_confirmations = p.confirmations
          from jsonb_to_recordset(${JSON.stringify(publishedNow)}::jsonb) as p(id text, confirmations integer)
          where matches.id = p.id
        ),
        old_blocks as (delete from blocks where ${prune} and coin = ${coin} and height < ${keepFrom}),
        old_matches as (delete from matches where ${prune} and coin = ${coin} and height < ${keepFrom} and published_confirmations is not null)
        select count(*) from settings
      `.execute(db);
      if (publishedNow.length || matches.some((m) => m.publishedConfirmations === null)) nextDue.delete(coin);
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
      nextDue.delete(coin);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("matches").where("coin", "=", coin).where("height", ">", height).execute();
        await trx.deleteFrom("blocks").where("coin", "=", coin).where("height", ">", height).execute();
      });
    },
  };
}
