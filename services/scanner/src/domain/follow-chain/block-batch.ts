import type { Context } from "@opentelemetry/api";
import type { StoredMatch } from "../ports.ts";
import type { TransferEvent } from "../transfer-event.ts";
import type { BlockHeader } from "../transfer.ts";

/**
 * Consecutive blocks processed together: all their matches are published, then all are stored in
 * one transaction (the cursor moves past them), then their `block.processed` events go out. Each
 * block still sees its matches published before the cursor passes it; catching up costs a few
 * round trips per batch instead of per block.
 */
export interface Batch {
  /** When the index these blocks are matched with was refreshed. */
  matchedAtMs: number;
  headers: BlockHeader[];
  /** Each header's block span context: its events are published inside it. */
  contexts: Context[];
  stored: StoredMatch[];
  events: Array<{ event: TransferEvent; context: Context }>;
  matchedPerBlock: number[];
  /** Earlier pending matches published in this batch, with their depth. */
  publishedNow: Map<string, number>;
}

export function createBatch(matchedAtMs: number): Batch {
  return { matchedAtMs, headers: [], contexts: [], stored: [], events: [], matchedPerBlock: [], publishedNow: new Map() };
}
