import { context } from "@opentelemetry/api";
import type { ProcessedBlock } from "../ports.ts";
import type { Batch } from "./block-batch.ts";
import { reorgWindowOf, type FollowChainOptions } from "./follow-chain-options.ts";

/**
 * Publishes the batch's transfers (recorded first), stores its blocks and matches (the cursor moves
 * past them), then publishes their `block.processed` events.
 */
export async function commitBatch<Block>(options: FollowChainOptions<Block>, batch: Batch, tip: number): Promise<void> {
  if (batch.headers.length === 0) return;
  const coin = options.chain.coin;
  // The mempool watcher takes turns with this part: a transaction published here is never announced as pending after it.
  await (options.commitLock ?? ((work) => work()))(() => storeBatch(options, batch));
  await Promise.all(
    batch.headers.map((header, i) =>
      context.with(batch.contexts[i]!, () =>
        options.sink.publishBlock({
          coin,
          height: header.height,
          hash: header.hash,
          parent_hash: header.parentHash,
          time: new Date(header.timeMs).toISOString(),
          tx_count: header.txCount,
          matched_count: batch.matchedPerBlock[i]!,
          lag_blocks: Math.max(0, tip - header.height),
        }),
      ),
    ),
  );
  batch.headers.forEach((header, i) => options.onBlock?.(header, batch.matchedPerBlock[i]!, tip));
}

/** Publishes the batch's transfers (recorded first), then stores its blocks and matches. */
async function storeBatch<Block>(options: FollowChainOptions<Block>, batch: Batch): Promise<void> {
  const { chain, store, sink } = options;
  const coin = chain.coin;
  const publishedNow = [...batch.publishedNow].map(([id, confirmations]) => ({ id, confirmations }));
  if (batch.events.length) {
    await store.recordPublishing(
      coin,
      batch.stored.filter((entry) => entry.publishedConfirmations !== null),
      publishedNow,
    );
    await Promise.all(
      batch.events.map(({ event, context: blockContext }) => context.with(blockContext, () => sink.publishTransfer(event))),
    );
  }
  // A configured chain's window always comes with the options (its registry entry's, or its setting).
  const window = reorgWindowOf(options);
  const last = batch.headers[batch.headers.length - 1]!;
  await store.commitBlocks(
    coin,
    batch.headers.map((header): ProcessedBlock => ({ ...header, matchedAtMs: batch.matchedAtMs })),
    batch.stored,
    publishedNow,
    last.height - window,
  );
}
