import type { Coin } from "@chaingate/contracts";
import { sql } from "kysely";
import type { ProcessedBlock, StoredMatch } from "../../domain/ports.ts";
import type { FollowerStoreContext } from "./follower-store-context.ts";
import { insertMatches, markPublished, matchRow } from "./match-rows.ts";

/**
 * Revert counts are kept this long after a transfer's last revert: a transaction may wait in the
 * mempool long after its block left, and must come back under a higher generation.
 */
const REVERT_COUNTS_KEPT = sql`interval '30 days'`;

/** Old blocks and matches are pruned every this many blocks (a cheap statement, not free). */
const PRUNE_EVERY_BLOCKS = 16;

/** `FollowerStore.commitBlocks`: blocks, matches and published marks in one statement, with pruning. */
export async function commitBlocks(
  context: FollowerStoreContext,
  coin: Coin,
  blocks: readonly ProcessedBlock[],
  matches: readonly StoredMatch[],
  publishedNow: ReadonlyArray<{ id: string; confirmations: number }>,
  keepFrom: number,
): Promise<void> {
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
  `.execute(context.db);
  if (publishedNow.length || matches.some((m) => m.publishedConfirmations === null)) context.nextDue.delete(coin);
}
