/**
 * The eth-proxy's error answers: the shared node-failure table of each chain it serves (a node
 * error's code names its chain, and so does the answer), plus bad parameters and missing records.
 */
import { nodeErrorResponses, nodeFailureResponse } from "@chaingate/chain-proxy";
import type { ValidationError } from "@chaingate/errors";
import type { ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { ethereum, type ChainLabel } from "@chaingate/node-client";
import type { EthNotFoundError } from "./request-errors.ts";

export function ethErrorResponses(logger: Logger, chains: readonly ChainLabel[] = [ethereum]): ErrorResponseTable {
  return {
    ...Object.assign({}, ...chains.map((chain) => nodeErrorResponses(chain, logger))),
    eth_not_found: (error) => nodeFailureResponse((error as EthNotFoundError).chain, "not_found"),
    eth_bad_parameter: (error) => ({ status: 400, body: { error: error.message } }),
    // The spec's eth 422 is `{error}` naming the field (rule 6); `message` and `errors` are every
    // other 422's, kept so one client reads both.
    validation_failed: (error) => ({
      status: 422,
      body: { error: error.message, message: error.message, errors: (error as ValidationError).fieldErrors },
    }),
  };
}
