/**
 * `transfer.matched` → delivery jobs, in batches: one insert per batch, acked after it (each job
 * keeps its message's trace). An event redelivered anyway is stored once (one job per webhook and
 * event id), so the ack wait can be short.
 */
import type { Bus, Consumption } from "@chaingate/bus";
import { transferMatched } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import type { DeliveryObserver } from "../infra/delivery-metrics.ts";
import { enqueueDeliveries } from "../infra/enqueue-deliveries.ts";
import { traceparentOf } from "../infra/job-trace-context.ts";

/** Durable consumer of `transfer.matched` (replicas share it). */
export const TRANSFER_MATCHED_CONSUMER = "delivery";
/**
 * Events a killed replica had pulled go to another after this (the bus's 30 s default delayed such
 * notifications by half a minute in the faults drill). Storing a batch is one insert, and a slow
 * one keeps its messages with `working()`.
 */
export const TRANSFER_MATCHED_ACK_WAIT_MS = 5_000;

export interface StoreMatchedTransfersOptions {
  db: Kysely<DeliveryDatabase>;
  /** Rung when a batch stored new jobs: the worker sends them without waiting for its poll. */
  onJobsQueued: () => void;
  observer: Pick<DeliveryObserver, "eventsConsumed">;
}

export function storeMatchedTransfers(bus: Bus, { db, onJobsQueued, observer }: StoreMatchedTransfersOptions): Promise<Consumption> {
  return bus.consumeBatches(transferMatched, {
    durable: TRANSFER_MATCHED_CONSUMER,
    ackWaitMs: TRANSFER_MATCHED_ACK_WAIT_MS,
    handleBatch: async (items) => {
      const { stored, queued } = await enqueueDeliveries(
        db,
        items.map((item) => ({ event: item.payload, traceparent: traceparentOf(item.context) })),
      );
      if (queued) onJobsQueued();
      observer.eventsConsumed(
        items.map((item) => item.payload.coin),
        stored,
      );
    },
  });
}
