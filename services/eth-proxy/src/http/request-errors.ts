/** The eth-proxy's own refusals, one class per condition; the error table maps their codes. */
import { ChaingateError } from "@chaingate/errors";
import type { ChainLabel } from "@chaingate/node-client";

/** A path or query value of the wrong form: 400 `{error}`, the node is not contacted. */
export class EthBadParameterError extends ChaingateError {
  override name = "EthBadParameterError" as const;
  constructor(message: string) {
    super("eth_bad_parameter", message);
  }
}

/** The node answered `null`: no such block, transaction or receipt (yet). Reported as details.reason not_found. */
export class EthNotFoundError extends ChaingateError {
  override name = "EthNotFoundError" as const;
  readonly reason = "not_found" as const;
  /** The chain whose node answered (its generic failure message names it). */
  readonly chain: ChainLabel;
  constructor(chain: ChainLabel, what: string) {
    super("eth_not_found", `The ${chain.name} node knows no ${what}.`);
    this.chain = chain;
  }
}
