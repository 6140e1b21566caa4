import { z } from "../zod.ts";
import { coinSchema, coinSubject, type EventContract } from "./event-contract.ts";
import { chainIdSchema } from "./transfer-matched.ts";

/** `block.processed.<coin>`: the scanner finished a block (matched transfers already published). */
export const blockProcessedSchema = z.object({
  coin: coinSchema,
  /** The chain as a CAIP-2 id (see transfer.matched); absent in events published before it existed. */
  chain: chainIdSchema.optional(),
  height: z.number().int().nonnegative(),
  hash: z.string().min(1),
  parent_hash: z.string().nullable(),
  time: z.iso.datetime(),
  tx_count: z.number().int().nonnegative(),
  matched_count: z.number().int().nonnegative(),
  /** How far the block is behind the node's tip when processed (0 when live). */
  lag_blocks: z.number().int().nonnegative().optional(),
});

export const blockProcessed = {
  name: "block.processed",
  stream: "BLOCKS",
  streamSubjects: "block.processed.>",
  schema: blockProcessedSchema,
  subject: (payload) => coinSubject("block.processed", payload.coin),
  messageId: (payload) => `block:${payload.coin}:${payload.height}:${payload.hash}`,
} satisfies EventContract<typeof blockProcessedSchema>;
