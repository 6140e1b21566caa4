/** Match rows: how a StoredMatch is stored and read back, and the CTE bodies that write them. */
import type { Coin } from "@chaingate/contracts";
import { sql } from "kysely";
import type { StoredMatch } from "../../domain/ports.ts";
import type { Match } from "../../domain/transfer.ts";
import { transferKey } from "../../domain/transfer-event.ts";

interface MatchRow {
  id: string;
  height: number;
  block_hash: string;
  time_ms: number;
  match: unknown;
  published_confirmations: number | null;
  generation: number;
}

export const toStored = (row: MatchRow): StoredMatch => ({
  id: row.id,
  match: row.match as Match,
  height: row.height,
  blockHash: row.block_hash,
  timeMs: row.time_ms,
  publishedConfirmations: row.published_confirmations,
  generation: row.generation,
});

export const MATCH_COLUMNS = ["id", "height", "block_hash", "time_ms", "match", "published_confirmations", "generation"] as const;

export const matchRow = (m: StoredMatch) => ({
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
export const insertMatches = (coin: Coin, rows: ReadonlyArray<ReturnType<typeof matchRow>>) => sql`
  insert into matches (id, coin, height, block_hash, time_ms, match, due_height, published_confirmations, generation)
  select id, ${coin}, height, block_hash, time_ms, match, due_height, published_confirmations, generation
  from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
    as m(id text, height bigint, block_hash text, time_ms bigint, match jsonb, due_height bigint, published_confirmations integer, generation integer)
  on conflict (id) do nothing`;

/** Marks stored matches published with the given confirmations; a CTE body. */
export const markPublished = (publishedNow: ReadonlyArray<{ id: string; confirmations: number }>) => sql`
  update matches set published_confirmations = p.confirmations
  from jsonb_to_recordset(${JSON.stringify(publishedNow)}::jsonb) as p(id text, confirmations integer)
  where matches.id = p.id`;

/** Upserts one more revert of each match's transfer key; a CTE body. */
export const countReverts = (coin: Coin, reverted: readonly StoredMatch[]) => {
  const rows = reverted.map((m) => ({ key: transferKey(m.match), reverts: m.generation + 1 }));
  return sql`
    insert into reverted_transfers (coin, transfer_key, reverts)
    select ${coin}, key, reverts from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(key text, reverts integer)
    on conflict (coin, transfer_key) do update set reverts = greatest(reverted_transfers.reverts, excluded.reverts), reverted_at = now()`;
};
