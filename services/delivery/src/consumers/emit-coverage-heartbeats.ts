/**
 * `block.processed` → `coverage` events for the webhooks that asked for heartbeats (issue #30): at
 * every block whose height is a multiple of a webhook's `heartbeat_blocks`, a numbered event saying
 * that every event the scanner had found for blocks up to it was sent before it (a lower sequence).
 *
 * Why that holds: see store-coverage-events.ts (stored once the `transfer.matched` consumer has
 * acknowledged every transfer the scanner published before this block).
 * Every block also becomes its chain's tip in `processed_tips`, which the clock heartbeats cover
 * (workers/clock-heartbeats.ts).
 */
import type { Bus, Consumption } from "@chaingate/bus";
import { blockProcessed, type EventPayload } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import { coverageEventBody } from "../domain/coverage-heartbeats.ts";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import { COVERAGE_PROGRESS_WAIT_MS, storeCoverageEvents } from "./store-coverage-events.ts";

/** Durable consumer of `block.processed` (replicas share it). */
export const COVERAGE_CONSUMER = "delivery-coverage";

export interface EmitCoverageHeartbeatsOptions {
  db: Kysely<DeliveryDatabase>;
  onJobsQueued: () => void;
}

export function emitCoverageHeartbeats(bus: Bus, { db, onJobsQueued }: EmitCoverageHeartbeatsOptions): Promise<Consumption> {
  return bus.consume(blockProcessed, {
    durable: COVERAGE_CONSUMER,
    ackWaitMs: COVERAGE_PROGRESS_WAIT_MS + 10_000,
    handle: async (block) => {
      await recordTip(db, block);
      const due = await webhooksDueAt(db, block);
      if (!due.length) return;
      // A failure (the transfer consumer too slow) redelivers the block later.
      const queued = await storeCoverageEvents(
        db,
        bus,
        due.map((webhook) => ({ webhookId: webhook.id, body: coverageEventBody(webhook.id, block, webhook.confirmations) })),
      );
      if (queued) onJobsQueued();
    },
  });
}

/**
 * The block as its chain's newest processed one; an older block redelivered does not move the tip
 * back (a reorg's blocks come at the same height or above).
 */
async function recordTip(db: Kysely<DeliveryDatabase>, block: EventPayload<typeof blockProcessed>): Promise<void> {
  await db
    .insertInto("processed_tips")
    .values({ coin: block.coin, chain: block.chain ?? null, height: block.height, hash: block.hash, block_time: new Date(block.time) })
    .onConflict((c) =>
      c
        .column("coin")
        .doUpdateSet((eb) => ({
          chain: eb.ref("excluded.chain"),
          height: eb.ref("excluded.height"),
          hash: eb.ref("excluded.hash"),
          block_time: eb.ref("excluded.block_time"),
          processed_at: new Date(),
        }))
        .where("processed_tips.height", "<=", (eb) => eb.ref("excluded.height")),
    )
    .execute();
}

/** The live webhooks of the block's chain whose heartbeat falls on its height (inactive ones too: held). */
function webhooksDueAt(db: Kysely<DeliveryDatabase>, block: EventPayload<typeof blockProcessed>) {
  return db
    .selectFrom("webhooks")
    .select(["id", "confirmations"])
    .where("coin", "=", block.coin)
    .where("heartbeat_blocks", "is not", null)
    .where("deleted_at", "is", null)
    .where((eb) => eb(eb.lit(block.height), "%", eb.ref("heartbeat_blocks")), "=", 0)
    .orderBy("id")
    .execute();
}
