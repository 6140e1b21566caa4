import { NodeBehindError } from "../scanner-errors.ts";
import type { FollowChainOptions } from "./follow-chain-options.ts";
import { publishReverts } from "./publish-reverts.ts";

/**
 * Transfers published for blocks above the cursor were published by a pass that failed (or a
 * process that died) before storing their blocks. Those whose block the node reports at its
 * height stay (processing it again publishes the same ids); those whose height now holds another
 * block are reverted. A node that lacks the height is waited for.
 */
export async function settlePublishedAboveCursor<Block>(options: FollowChainOptions<Block>): Promise<void> {
  const { chain, store, sink, logger } = options;
  const coin = chain.coin;
  const cursor = await store.cursor(coin);
  const above = await store.publishedAbove(coin, cursor?.height ?? -1);
  if (above.length === 0) return;
  const nodeHashes = new Map<number, string>();
  for (const height of new Set(above.map((entry) => entry.height))) {
    const hash = await chain.source.hashAt(height);
    if (hash === null) throw new NodeBehindError(coin, height);
    nodeHashes.set(height, hash);
  }
  const orphaned = above.filter((entry) => nodeHashes.get(entry.height) !== entry.blockHash);
  if (orphaned.length === 0) return;
  await publishReverts(sink, orphaned);
  await store.revertMatches(coin, orphaned);
  logger.warn(
    { coin, reverted: orphaned.length, heights: [...new Set(orphaned.map((entry) => entry.height))] },
    "reverted transfers published for blocks that left the chain before they were stored",
  );
}
