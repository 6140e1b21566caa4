/** Conditions the follower cannot resolve by retrying. */
import { ChaingateError } from "@chaingate/errors";
import type { Coin } from "@chaingate/contracts";

/** The node's chain forked below the kept window: the matches there can no longer be reverted. */
export class ReorgTooDeepError extends ChaingateError {
  override name = "ReorgTooDeepError";
  constructor(coin: Coin, height: number, window: number) {
    super("reorg_too_deep", `${coin}: the node's chain no longer contains the processed block at ${height}, below the kept window of ${window} blocks`, { details: { coin, height, window } });
  }
}
