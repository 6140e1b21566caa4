/**
 * A chain's follower state beside its cursor (table `chain_state`, migration 0003): the node chain
 * identity the kept blocks belong to, where a follower without a cursor starts, and operator
 * resets. A reset is requested by the CLI and applied by the follower holding the chain's lease, so
 * it never races a follower's commit.
 */
import type { Coin } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { ChainState, ChainStateStore } from "../domain/chain-guard.ts";
import type { ScannerDatabase } from "./database-schema.ts";

export interface ChainStateTable {
  coin: string;
  identity: string | null;
  start_height: number | null;
  reset_requested: number;
  reset_applied: number;
  /** Start height of the newest request; null: the node's tip when it is applied. */
  reset_from: number | null;
  reset_requested_at: Date | null;
}

export type ChainStateDatabase = ScannerDatabase & { chain_state: ChainStateTable };

export function createPostgresChainStateStore(db: Kysely<ScannerDatabase>): ChainStateStore {
  const state = db as unknown as Kysely<ChainStateDatabase>;
  return {
    async read(coin) {
      const row = await state.selectFrom("chain_state").selectAll().where("coin", "=", coin).executeTakeFirst();
      const read: ChainState = {};
      if (!row) return read;
      if (row.identity !== null) read.identity = row.identity;
      if (row.start_height !== null) read.startHeight = Number(row.start_height);
      if (Number(row.reset_requested) > Number(row.reset_applied))
        read.pendingReset = { seq: Number(row.reset_requested), ...(row.reset_from === null ? {} : { from: Number(row.reset_from) }) };
      return read;
    },
    async adoptIdentity(coin, identity) {
      await sql`insert into chain_state (coin, identity) values (${coin}, ${identity}) on conflict (coin) do update set identity = excluded.identity where chain_state.identity is null`.execute(
        state,
      );
    },
    async applyReset(coin, seq, identity, startHeight) {
      await state.transaction().execute(async (trx) => {
        await trx.deleteFrom("matches").where("coin", "=", coin).execute();
        await trx.deleteFrom("blocks").where("coin", "=", coin).execute();
        await trx.deleteFrom("reverted_transfers").where("coin", "=", coin).execute();
        // Rescans name kept blocks that are gone now.
        await trx.deleteFrom("pending_rescans").where("coin", "=", coin).execute();
        await trx
          .updateTable("chain_state")
          .set({ identity, start_height: startHeight, reset_applied: seq })
          .where("coin", "=", coin)
          .execute();
      });
    },
    async lowestKept(coin: Coin) {
      const row = await state
        .selectFrom("blocks")
        .select(["height", "hash"])
        .where("coin", "=", coin)
        .orderBy("height")
        .limit(1)
        .executeTakeFirst();
      return row && { height: Number(row.height), hash: row.hash };
    },
    async requestReset(coin, from) {
      await sql`
        insert into chain_state (coin, reset_requested, reset_from, reset_requested_at) values (${coin}, 1, ${from ?? null}, now())
        on conflict (coin) do update set reset_requested = chain_state.reset_requested + 1, reset_from = excluded.reset_from, reset_requested_at = now()`.execute(
        state,
      );
    },
  };
}
