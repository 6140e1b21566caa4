import type { Coin } from "@chaingate/contracts";
import type { FollowerStoreContext } from "./follower-store-context.ts";

/** `FollowerStore.generations`: no query while the coin is known to have no revert counts. */
export async function transferGenerations(
  context: FollowerStoreContext,
  coin: Coin,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const { db, anyReverts } = context;
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
}
