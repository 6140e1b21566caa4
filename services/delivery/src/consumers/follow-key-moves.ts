/**
 * `key.moved` → the moved key's addresses follow it to the new account's webhooks and leave the old
 * account's (apply-key-move.ts). One durable consumer shared by the replicas; a redelivered or
 * overtaken move changes nothing (each key keeps its newest move).
 */
import type { Bus, Consumption } from "@chaingate/bus";
import { keyMoved } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import { applyKeyMove } from "../infra/apply-key-move.ts";
import type { DeliveryDatabase } from "../infra/database-schema.ts";

/** Durable consumer of `key.moved` (replicas share it). */
export const KEY_MOVED_CONSUMER = "delivery-key-moves";

export interface FollowKeyMovesOptions {
  db: Kysely<DeliveryDatabase>;
  /** Rung after a move is applied: webhooks changed (the watch-feed relay) and the key's history is queued (the backfill). */
  onChange: () => void;
}

export function followKeyMoves(bus: Bus, { db, onChange }: FollowKeyMovesOptions): Promise<Consumption> {
  return bus.consume(keyMoved, {
    durable: KEY_MOVED_CONSUMER,
    handle: async (move) => {
      const { applied } = await db.transaction().execute((trx) => applyKeyMove(trx, move));
      if (applied) onChange();
    },
  });
}
