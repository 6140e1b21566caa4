import type { Coin } from "@chaingate/contracts";
import type { StoredMatch } from "../../domain/ports.ts";
import type { FollowerStoreContext } from "./follower-store-context.ts";
import { countReverts } from "./match-rows.ts";

/** `FollowerStore.rewindTo`: blocks and matches above `height` forgotten, reverts counted, in one transaction. */
export async function rewindTo(context: FollowerStoreContext, coin: Coin, height: number, reverted: readonly StoredMatch[]): Promise<void> {
  context.nextDue.delete(coin);
  if (reverted.length) context.anyReverts.set(coin, true);
  await context.db.transaction().execute(async (trx) => {
    if (reverted.length) await countReverts(coin, reverted).execute(trx);
    await trx.deleteFrom("matches").where("coin", "=", coin).where("height", ">", height).execute();
    await trx.deleteFrom("blocks").where("coin", "=", coin).where("height", ">", height).execute();
  });
}

/** `FollowerStore.revertMatches`: these matches forgotten and their reverts counted, in one transaction. */
export async function revertMatches(context: FollowerStoreContext, coin: Coin, reverted: readonly StoredMatch[]): Promise<void> {
  if (reverted.length === 0) return;
  context.nextDue.delete(coin);
  context.anyReverts.set(coin, true);
  await context.db.transaction().execute(async (trx) => {
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
}
