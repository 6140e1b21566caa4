/**
 * `block.processed` → `coverage` events for the webhooks that asked for heartbeats (issue #30): at
 * every block whose height is a multiple of a webhook's `heartbeat_blocks`, a numbered event saying
 * that every event the scanner had found for blocks up to it was sent before it (a lower sequence).
 *
 * Why that holds: the scanner publishes a block's `transfer.matched` events before its
 * `block.processed`, so all of them sit in the TRANSFERS stream at or below the stream's newest
 * sequence read here; the coverage events are stored only once the `transfer.matched` consumer has
 * acknowledged everything up to that sequence, that is stored (and numbered) every one of them.
 * Every block also becomes its chain's tip in `processed_tips`, which the clock heartbeats cover
 * (workers/clock-heartbeats.ts).
 */
import type { Bus, Consumption } from "@chaingate/bus";
import { blockProcessed, transferMatched, type EventPayload } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import { coverageEventBody } from "../domain/coverage-heartbeats.ts";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import { storeNumberedJobs } from "../infra/store-numbered-jobs.ts";
import { TRANSFER_MATCHED_CONSUMER } from "./store-matched-transfers.ts";

/** Durable consumer of `block.processed` (replicas share it). */
export const COVERAGE_CONSUMER = "delivery-coverage";
/** How often the transfer consumer's progress is read while waiting for it. */
const PROGRESS_POLL_MS = 100;
/** Past this the block is redelivered later (the transfer consumer is stuck: a database outage). */
const PROGRESS_WAIT_MS = 20_000;

export interface EmitCoverageHeartbeatsOptions {
  db: Kysely<DeliveryDatabase>;
  onJobsQueued: () => void;
}

export function emitCoverageHeartbeats(bus: Bus, { db, onJobsQueued }: EmitCoverageHeartbeatsOptions): Promise<Consumption> {
  return bus.consume(blockProcessed, {
    durable: COVERAGE_CONSUMER,
    ackWaitMs: PROGRESS_WAIT_MS + 10_000,
    handle: async (block) => {
      await recordTip(db, block);
      const due = await webhooksDueAt(db, block);
      if (!due.length) return;
      // Every transfer published before this block is stored (a redelivery later if that takes too long).
      await bus.waitUntilConsumed(transferMatched, TRANSFER_MATCHED_CONSUMER, { timeoutMs: PROGRESS_WAIT_MS, pollMs: PROGRESS_POLL_MS });
      const { queued } = await db.transaction().execute((trx) =>
        storeNumberedJobs(
          trx,
          due.map((webhook) => {
            const body = coverageEventBody(webhook.id, block, webhook.confirmations);
            return { webhookId: webhook.id, eventId: body.event_id, body, traceparent: null };
          }),
        ),
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
