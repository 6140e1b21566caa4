/** Conditions of the node and the chain that stop or hold back the follower. */
import { ChaingateError } from "@chaingate/errors";
import type { Coin } from "@chaingate/contracts";

/** The node's chain forked below the kept window: the matches there can no longer be reverted. */
export class ReorgTooDeepError extends ChaingateError {
  override name = "ReorgTooDeepError";
  constructor(coin: Coin, height: number, window: number) {
    super(
      "reorg_too_deep",
      `${coin}: the node's chain no longer contains the processed block at ${height}, below the kept window of ${window} blocks`,
      { details: { coin, height, window } },
    );
  }
}

/**
 * The node does not have a block the follower needs to compare (its tip is below it, or a
 * load-balanced backend lags): a missing block is not a different block, so nothing is reverted;
 * the follower waits for the node.
 */
export class NodeBehindError extends ChaingateError {
  override name = "NodeBehindError";
  constructor(coin: Coin, height: number) {
    super("node_behind", `${coin}: the node has no block at ${height} yet`, { retryable: true, details: { coin, height } });
  }
}

/**
 * The node answered for a block but not with all of it (receipts or transaction infos missing, not
 * matching the block's transactions, or from another fork): a backend that does not have the block
 * complete yet. Retryable: the follower retries the step later and never matches that answer.
 */
export class BlockNotReadyError extends ChaingateError {
  override name = "BlockNotReadyError";
  constructor(coin: Coin, height: number, reason: string) {
    super("block_not_ready", `${coin}: the node's block ${height} is not complete yet (${reason})`, {
      retryable: true,
      details: { coin, height, reason },
    });
  }
}
