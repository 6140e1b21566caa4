import type { Cursor } from "../ports.ts";
import { NodeBehindError, ReorgTooDeepError } from "../scanner-errors.ts";
import { reorgWindowOf, type FollowChainOptions } from "./follow-chain-options.ts";
import { publishReverts } from "./publish-reverts.ts";

/** Walks back to the newest block the node still has, reverts what was notified above it. */
export async function rewind<Block>(options: FollowChainOptions<Block>, cursor: Cursor): Promise<void> {
  const { chain, store, sink, logger } = options;
  const coin = chain.coin;
  // A configured chain's window always comes with the options (its registry entry's, or its setting).
  const window = reorgWindowOf(options);
  let height = cursor.height;
  for (;;) {
    const stored = await store.hashAt(coin, height);
    if (stored === undefined) throw new ReorgTooDeepError(coin, height, window);
    const nodeHash = await chain.source.hashAt(height);
    // Only a hash the node reports differs from ours; no block there yet is no fork.
    if (nodeHash === null) throw new NodeBehindError(coin, height);
    if (nodeHash === stored) break;
    height--;
  }
  const reverted = await store.publishedAbove(coin, height);
  await publishReverts(sink, reverted);
  await store.rewindTo(coin, height, reverted);
  options.onReorg?.({ forkHeight: height, depth: cursor.height - height, reverted: reverted.length });
  logger.warn({ coin, fork_height: height, from_height: cursor.height, reverted: reverted.length }, "reorg: rewound to the fork point");
}
