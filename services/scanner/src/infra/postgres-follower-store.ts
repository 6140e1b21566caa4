/** The follower's state in Postgres (schema `scanner`): cursor, kept block hashes, matches. */
import type { Coin } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { FollowerStore, StoredMatch } from "../domain/ports.ts";
import type { Match } from "../domain/transfer.ts";
import { transferKey } from "../domain/transfer-event.ts";
import type { ScannerDatabase } from "./database-schema.ts";

interface MatchRow {
  id: string;
  height: number;
  block_hash: string;
  time_ms: number;
  match: unknown;
  published_confirmations: number | null;
  generation: number;
}

const toStored = (row: MatchRow): StoredMatch => ({
  id: row.id,
  match: row.match as Match,
  height: row.height,
  blockHash: row.block_hash,
  timeMs: row.time_ms,
  publishedConfirmations: row.published_confirmations,
  generation: row.generation,
});

const MATCH_COLUMNS = ["id", "height", "block_hash", "time_ms", "match", "published_confirmations", "generation"] as const;

const matchRow = (m: StoredMatch) => ({
  id: m.id,
  height: m.height,
  block_hash: m.blockHash,
  time_ms: m.timeMs,
  match: m.match,
  due_height: m.height + m.match.confirmations - 1,
  published_confirmations: m.publishedConfirmations,
  generation: m.generation,
});

/** Inserts match rows (a JSON array of matchRow) unless stored already; a CTE body. */
const insertMatches = (coin: Coin, rows: ReadonlyArray<ReturnType<typeof matchRow>>) => sql`
  insert into matches (id, coin, height, block_hash, time_ms, match, due_height, published_confirmations, generation)
  select id, ${coin}, height, block_hash, time_ms, match, due_height, published_confirmations, generation
  from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
    as m(id text, height bigint, block_hash text, time_ms bigint, match jsonb, due_height bigint, published_confirmations integer, generation integer)
  on conflict (id) do nothing`;

/** Marks stored matches published with the given confirmations; a CTE body. */
const markPublished = (publishedNow: ReadonlyArray<{ id: string; confirmations: number }>) => sql`
  update matches set published_confirmations = p.confirmations
  from jsonb_to_recordset(${JSON.stringify(publishedNow)}::jsonb) as p(id text, confirmations integer)
  where matches.id = p.id`;

/**
 * Revert counts are kept this long after a transfer's last revert: a transaction may wait in the
 * mempool long after its block left, and must come back under a higher generation.
 */
const REVERT_COUNTS_KEPT = sql`interval '30 days'`;

/** Old blocks and matches are pruned every this many blocks (a cheap statement, not free). */
const PRUNE_EVERY_BLOCKS = 16;

/**
 * Only the lease holder writes a coin's rows, so while it holds the lease the store may remember
 * the lowest due height of its pending matches (skipping the per-block query while nothing is due,
 * almost always) and whether any transfer of the window was ever reverted. Both are forgotten when
 * the lease is (re)acquired: another replica may have written meanwhile.
 */
export function createPostgresFollowerStore(db: Kysely<ScannerDatabase>): FollowerStore {
  /** Per coin: the lowest due height of the stored pending matches (Infinity: none); absent: unknown. */
  const nextDue = new Map<Coin, number>();
  /** Per coin: false when no revert count is stored; absent: unknown. */
  const anyReverts = new Map<Coin, boolean>();

  /** Upserts one more revert of each match's transfer key; a CTE body. */
  const countReverts = (coin: Coin, reverted: readonly StoredMatch[]) => {
    const rows = reverted.map((m) => ({ key: transferKey(m.match), reverts: m.generation + 1 }));
    return sql`
      insert into reverted_transfers (coin, transfer_key, reverts)
      select ${coin}, key, reverts from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(key text, reverts integer)
      on conflict (coin, transfer_key) do update set reverts = greatest(reverted_transfers.reverts, excluded.reverts), reverted_at = now()`;
  };

  return {
    async begin(coin) {
      nextDue.delete(coin);
      anyReverts.delete(coin);
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
      const blockRows = blocks.map((b) => ({
        height: b.height,
        hash: b.hash,
        parent_hash: b.parentHash,
        time_ms: b.timeMs,
        matched_at_ms: b.matchedAtMs,
      }));
      const prune = blocks.some((b) => b.height % PRUNE_EVERY_BLOCKS === 0);
      // One statement, one round trip, one implicit transaction. Not waiting for the WAL flush
      // (synchronous_commit off, for this transaction only) is safe: a commit lost to a database
      // crash only moves the cursor back, and re-processing the block publishes the same
      // deterministic event ids (dropped as duplicates) and stores the same rows.
      await sql`
        with settings as (select set_config('synchronous_commit', 'off', true)),
        block as (
          insert into blocks (coin, height, hash, parent_hash, time_ms, matched_at_ms)
          select ${coin}, height, hash, parent_hash, time_ms, matched_at_ms
          from jsonb_to_recordset(${JSON.stringify(blockRows)}::jsonb) as b(height bigint, hash text, parent_hash text, time_ms bigint, matched_at_ms bigint)
          on conflict (coin, height) do update set hash = excluded.hash, parent_hash = excluded.parent_hash, time_ms = excluded.time_ms, matched_at_ms = excluded.matched_at_ms
        ),
        new_matches as (${insertMatches(coin, matches.map(matchRow))}),
        published as (${markPublished(publishedNow)}),
        old_blocks as (delete from blocks where ${prune} and coin = ${coin} and height < ${keepFrom}),
        old_matches as (delete from matches where ${prune} and coin = ${coin} and height < ${keepFrom} and published_confirmations is not null),
        old_reverts as (delete from reverted_transfers where ${prune} and coin = ${coin} and reverted_at < now() - ${REVERT_COUNTS_KEPT})
        select count(*) from settings
      `.execute(db);
      if (publishedNow.length || matches.some((m) => m.publishedConfirmations === null)) nextDue.delete(coin);
    },
    async recordPublishing(coin, published, publishedNow) {
      // Must reach the disk before the events go out: a lost record would be a transfer no rewind can revert.
      await sql`
        with new_matches as (${insertMatches(coin, published.map(matchRow))}),
        published as (${markPublished(publishedNow)})
        select 1
      `.execute(db);
      if (publishedNow.length || published.some((m) => m.publishedConfirmations === null)) nextDue.delete(coin);
    },
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
    async generations(coin, keys) {
      if (keys.length === 0 || anyReverts.get(coin) === false) return new Map();
      if (!anyReverts.has(coin)) {
        const any = await db.selectFrom("reverted_transfers").select("coin").where("coin", "=", coin).limit(1).executeTakeFirst();
        anyReverts.set(coin, any !== undefined);
        if (!any) return new Map();
      }
      const rows = await db
        .selectFrom("reverted_transfers")
        .select(["transfer_key", "reverts"])
        .where("coin", "=", coin)
        .where("transfer_key", "in", keys)
        .execute();
      return new Map(rows.map((row) => [row.transfer_key, row.reverts]));
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
    async rewindTo(coin, height, reverted) {
      nextDue.delete(coin);
      if (reverted.length) anyReverts.set(coin, true);
      await db.transaction().execute(async (trx) => {
        if (reverted.length) await countReverts(coin, reverted).execute(trx);
        await trx.deleteFrom("matches").where("coin", "=", coin).where("height", ">", height).execute();
        await trx.deleteFrom("blocks").where("coin", "=", coin).where("height", ">", height).execute();
      });
    },
    async revertMatches(coin, reverted) {
      if (reverted.length === 0) return;
      nextDue.delete(coin);
      anyReverts.set(coin, true);
      await db.transaction().execute(async (trx) => {
        await countReverts(coin, reverted).execute(trx);
        await trx
          .deleteFrom("matches")
          .where(
            "id",
            "in",
            reverted.map((m) => m.id),
          )
          .execute();
      });
    },
  };
}
