/** The mempool watcher's storage (`mempool_transfers`) and its look into the follower's kept matches. */
import type { Coin } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { MempoolEvent } from "../domain/mempool/mempool-event.ts";
import type { MempoolStore, OpenMempoolTransfer } from "../domain/mempool/mempool-ports.ts";
import type { ScannerDatabase } from "./database-schema.ts";

const idOf = (row: { key: string; generation: number }) => `${row.key}:${row.generation}`;

export function createPostgresMempoolStore(db: Kysely<ScannerDatabase>): MempoolStore {
  return {
    async open(coin) {
      const rows = await db
        .selectFrom("mempool_transfers")
        .select(["transfer_key", "generation", "event", "spends", "left_at_ms"])
        .where("coin", "=", coin)
        .where("outcome", "is", null)
        .execute();
      return rows.map(
        (row): OpenMempoolTransfer => ({
          key: row.transfer_key,
          generation: row.generation,
          event: row.event as MempoolEvent,
          spends: row.spends,
          leftAtMs: row.left_at_ms === null ? null : Number(row.left_at_ms),
        }),
      );
    },
    async matchedInBlocks(coin, txids) {
      if (!txids.length) return new Set();
      const rows = await sql<{ txid: string }>`
        select distinct match->'transfer'->>'txid' as txid from matches
        where coin = ${coin} and match->'transfer'->>'txid' = any(${[...txids]}::text[])`.execute(db);
      return new Set(rows.rows.map((row) => row.txid));
    },
    async announced(coin, ids) {
      if (!ids.length) return new Map();
      const rows = await db
        .selectFrom("mempool_transfers")
        .select(["transfer_key", "generation", "outcome"])
        .where("coin", "=", coin)
        .where(
          "transfer_key",
          "in",
          ids.map((id) => id.key),
        )
        .execute();
      const wanted = new Set(ids.map(idOf));
      return new Map(
        rows
          .map((row) => [idOf({ key: row.transfer_key, generation: row.generation }), row.outcome] as const)
          .filter(([id]) => wanted.has(id)),
      );
    },
    async record(coin, transfers) {
      if (!transfers.length) return;
      await db
        .insertInto("mempool_transfers")
        .values(
          transfers.map((t) => ({
            coin,
            transfer_key: t.key,
            generation: t.generation,
            webhook_id: t.event.webhook_id,
            txid: t.event.txid,
            event: JSON.stringify(t.event),
            spends: t.spends,
          })),
        )
        // Open again (its block left the chain): the first announcement's event stays.
        .onConflict((c) =>
          c.columns(["coin", "transfer_key", "generation"]).doUpdateSet({ outcome: null, left_at_ms: null, decided_at_ms: null }),
        )
        .execute();
    },
    async markLeft(coin, transfers, atMs) {
      if (!transfers.length) return;
      // One statement for a transaction's rows (one per webhook watching it).
      await db
        .updateTable("mempool_transfers")
        .set({ left_at_ms: atMs })
        .where("coin", "=", coin)
        .where((eb) => eb.or(transfers.map((t) => eb.and([eb("transfer_key", "=", t.key), eb("generation", "=", t.generation)]))))
        .execute();
    },
    async decide(coin, transfer, outcome, atMs) {
      await db
        .updateTable("mempool_transfers")
        .set({ outcome, decided_at_ms: atMs })
        .where("coin", "=", coin)
        .where("transfer_key", "=", transfer.key)
        .where("generation", "=", transfer.generation)
        .execute();
    },
    async prune(coin: Coin, beforeMs) {
      await db.deleteFrom("mempool_transfers").where("coin", "=", coin).where("decided_at_ms", "<", beforeMs).execute();
    },
  };
}
