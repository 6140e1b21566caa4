import type { Coin } from "@chaingate/contracts";
import { sql } from "kysely";
import type { StoredMatch } from "../../domain/ports.ts";
import type { FollowerStoreContext } from "./follower-store-context.ts";
import { insertMatches, markPublished, matchRow } from "./match-rows.ts";

/** `FollowerStore.recordPublishing`: matches about to be published, stored before their events go out. */
export async function recordPublishing(
  context: FollowerStoreContext,
  coin: Coin,
  published: readonly StoredMatch[],
  publishedNow: ReadonlyArray<{ id: string; confirmations: number }>,
): Promise<void> {
  // Must reach the disk before the events go out: a lost record would be a transfer no rewind can revert.
  await sql`
    with new_matches as (${insertMatches(coin, published.map(matchRow))}),
    published as (${markPublished(publishedNow)})
    select 1
  `.execute(context.db);
  if (publishedNow.length || published.some((m) => m.publishedConfirmations === null)) context.nextDue.delete(coin);
}
