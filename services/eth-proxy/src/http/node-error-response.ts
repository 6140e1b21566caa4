/**
 * The spec's answer for a failed node call on the REST endpoints: 500 with the generic
 * `Could not connect to ETH node.` (kept for compatibility), plus a `details` object saying what
 * really happened (the Bitcoin proxy's vocabulary), so an integrator tells an unknown hash from an
 * outage without a second call.
 */
import type { ChaingateError } from "@chaingate/errors";
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { ethereum, nodeErrorCodes, nodeFailureDetails, type NodeFailureReason } from "@chaingate/node-client";

export const GENERIC_NODE_ERROR = "Could not connect to ETH node.";
/** nginx's status for a client that went away: nobody reads it, the access log does. */
const CLIENT_CLOSED_REQUEST = 499;

export function nodeFailure(reason: NodeFailureReason, extra: { node_code?: number; node_message?: string } = {}): ErrorResponse {
  return { status: 500, body: { error: GENERIC_NODE_ERROR, details: { reason, ...extra } } };
}

/** The eth-proxy's error table: node failures with their details, bad parameters, missing records. */
export function nodeErrorResponses(logger: Logger): ErrorResponseTable {
  const codes = nodeErrorCodes(ethereum.id);
  const failure = (error: ChaingateError) => nodeFailure(nodeFailureDetails(error)?.reason ?? "node_error", nodeFailureDetails(error));
  return {
    [codes.rpcError]: failure,
    [codes.unreachable]: failure,
    [codes.notConfigured]: failure,
    [codes.authFailed]: failure,
    // The node answered something unusable: ours to look into, so logged.
    [codes.badAnswer]: (error) => {
      logger.error({ err: error }, "unusable answer from the Ethereum node");
      return failure(error);
    },
    [codes.aborted]: () => ({ status: CLIENT_CLOSED_REQUEST, body: { error: "The client closed the request." } }),
    eth_not_found: () => nodeFailure("not_found"),
    eth_bad_parameter: (error) => ({ status: 400, body: { error: error.message } }),
    invalid_query_parameter: (error) => ({ status: 400, body: { error: error.message } }),
  };
}
