import type { Context } from "@opentelemetry/api";
import { transferEvent, transferEventId, transferKey } from "../transfer-event.ts";
import type { BlockHeader } from "../transfer.ts";
import type { Batch } from "./block-batch.ts";
import type { FollowChainOptions } from "./follow-chain-options.ts";

/**
 * Adds a block to the batch: its matches (published at once when one confirmation is enough), and
 * the pending matches of earlier blocks that it makes deep enough.
 */
export async function matchBlock<Block>(
  options: FollowChainOptions<Block>,
  batch: Batch,
  block: Block,
  header: BlockHeader,
  blockContext: Context,
): Promise<void> {
  const { chain, store } = options;
  await chain.prepare?.(block, options.index);
  const matches = chain.match(block, options.index);
  let matched = 0;
  // Pending matches of this batch's earlier blocks (not stored yet) that this block makes deep enough.
  for (const entry of batch.stored) {
    if (entry.publishedConfirmations === null && header.height - entry.height + 1 >= entry.match.confirmations) {
      entry.publishedConfirmations = header.height - entry.height + 1;
      batch.events.push({
        event: transferEvent(
          "transfer",
          entry.match,
          { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs },
          entry.publishedConfirmations,
          entry.generation,
        ),
        context: blockContext,
      });
      matched++;
    }
  }
  for (const entry of await store.pendingDue(chain.coin, header.height)) {
    if (batch.publishedNow.has(entry.id)) continue;
    const depth = header.height - entry.height + 1;
    batch.publishedNow.set(entry.id, depth);
    batch.events.push({
      event: transferEvent(
        "transfer",
        entry.match,
        { height: entry.height, hash: entry.blockHash, timeMs: entry.timeMs },
        depth,
        entry.generation,
      ),
      context: blockContext,
    });
    matched++;
  }
  const generations = matches.length
    ? await store.generations(
        chain.coin,
        matches.map((match) => transferKey(match)),
      )
    : undefined;
  for (const match of matches) {
    const immediate = match.confirmations <= 1;
    const generation = generations?.get(transferKey(match)) ?? 0;
    batch.stored.push({
      id: transferEventId("transfer", match, header.hash, generation),
      match,
      height: header.height,
      blockHash: header.hash,
      timeMs: header.timeMs,
      publishedConfirmations: immediate ? 1 : null,
      generation,
    });
    if (immediate) {
      batch.events.push({ event: transferEvent("transfer", match, header, 1, generation), context: blockContext });
      matched++;
    }
  }
  batch.headers.push(header);
  batch.contexts.push(blockContext);
  batch.matchedPerBlock.push(matched);
}
