import { z } from "../zod.ts";
import { coinSchema, coinSubject, type EventContract, type StreamOptions } from "./event-contract.ts";

/**
 * Moves are rare and few, and a registry that missed one keeps watching the wrong account's
 * addresses: kept for good, so a delivery that comes back after the bus's 7 days still learns them.
 */
export const KEY_MOVES_STREAM_OPTIONS: StreamOptions = { maxAgeMs: 0 };

/**
 * `key.moved.<coin>`: the operator moved an extended-key record to another account
 * (`xpub-admin keys move`), with its id, counter and every address it issued. The delivery service
 * hands the key's addresses to the new account: its webhooks naming the record watch them, the old
 * account's stop watching the ones they had only through the key. Published from the xpub
 * service's outbox (`key_moves`) after the move committed, so none is lost.
 */
export const keyMovedSchema = z.object({
  /** The move's id in the xpub service: one key's moves have increasing ids, so consumers keep the newest. */
  move_id: z.number().int().positive(),
  /** The extended-key record that moved (its id stays the same). */
  xpub_id: z.number().int().positive(),
  coin: coinSchema,
  from_account_id: z.number().int().positive(),
  to_account_id: z.number().int().positive(),
  /** The record's counter at the move: indexes below it were issued before the move (and moved with it). */
  next_index: z.number().int().nonnegative(),
  moved_at: z.iso.datetime(),
});

export const keyMoved = {
  name: "key.moved",
  stream: "KEY_MOVES",
  streamSubjects: "key.moved.>",
  streamOptions: KEY_MOVES_STREAM_OPTIONS,
  schema: keyMovedSchema,
  subject: (payload) => coinSubject("key.moved", payload.coin),
  messageId: (p) => `moved:${p.move_id}`,
} satisfies EventContract<typeof keyMovedSchema>;
