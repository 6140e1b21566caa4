/**
 * A node without the block at or below the cursor is waited for, never taken for a reorg; one that
 * stays behind longer than `nodeBehindFailoverMs` is failed over like an unhealthy one.
 */
import { DEFAULT_NODE_BEHIND_FAILOVER_MS, type FollowChainOptions } from "./follow-chain-options.ts";
import type { FollowState } from "./follow-state.ts";

/**
 * The node lacks a block at or below the cursor: wait for it (a log line when it starts, a metric),
 * and fail it over once it has been behind longer than the setting.
 */
export function nodeBehind<Block>(
  options: FollowChainOptions<Block>,
  state: FollowState,
  neededHeight: number,
  tip: number | null,
  reason = "no block there yet",
): void {
  const { chain, logger } = options;
  const now = Date.now();
  const blocks = tip === null ? 1 : Math.max(1, neededHeight - tip);
  options.onNodeBehind?.(blocks);
  if (state.behindSince === undefined) {
    state.behindSince = now;
    logger.warn(
      { coin: chain.coin, needed_height: neededHeight, node_tip: tip, reason },
      "the node is behind: waiting for it (a missing or incomplete block is not a reorg)",
    );
    return;
  }
  const limit = options.nodeBehindFailoverMs ?? DEFAULT_NODE_BEHIND_FAILOVER_MS;
  if (now - state.behindSince >= limit && chain.demoteNode) {
    const url = chain.demoteNode(`behind the processed block ${neededHeight} for ${now - state.behindSince} ms`);
    logger.warn(
      { coin: chain.coin, needed_height: neededHeight, node_tip: tip, url, behind_ms: now - state.behindSince },
      "the node stayed behind: failed over to the next URL",
    );
    state.behindSince = now;
  }
}

export function nodeCaughtUp<Block>(options: FollowChainOptions<Block>, state: FollowState): void {
  if (state.behindSince === undefined) return;
  options.logger.info({ coin: options.chain.coin, behind_ms: Date.now() - state.behindSince }, "the node caught up");
  state.behindSince = undefined;
  options.onNodeBehind?.(null);
}
