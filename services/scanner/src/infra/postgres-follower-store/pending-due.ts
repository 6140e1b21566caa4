import type { Coin } from "@chaingate/contracts";
import type { StoredMatch } from "../../domain/ports.ts";
import type { FollowerStoreContext } from "./follower-store-context.ts";
import { MATCH_COLUMNS, toStored } from "./match-rows.ts";

/** `FollowerStore.pendingDue`: skipped while the remembered lowest due height is above the tip. */
export async function pendingDue(context: FollowerStoreContext, coin: Coin, tipHeight: number): Promise<StoredMatch[]> {
  const { db, nextDue } = context;
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
}
