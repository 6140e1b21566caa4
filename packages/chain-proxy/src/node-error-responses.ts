/**
 * The spec's answer for a failed node call on a proxy's REST endpoints, the same for every chain:
 * 500 with the generic `Could not connect to <COIN> node.` (kept for compatibility), plus `details`
 * saying what really happened, so an integrator tells an unknown id from an outage without a
 * second call.
 */
import type { ChaingateError } from "@chaingate/errors";
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { nodeErrorCodes, nodeFailureDetails, type ChainLabel, type NodeFailureReason } from "@chaingate/node-client";

/** nginx's status for a client that went away: nobody reads it, the access log does. */
const CLIENT_CLOSED_REQUEST = 499;

/** `Could not connect to BTC node.` for the chain `btc`. */
export function genericNodeError(chain: ChainLabel): string {
  return `Could not connect to ${chain.id.toUpperCase()} node.`;
}

export function nodeFailureResponse(
  chain: ChainLabel,
  reason: NodeFailureReason,
  extra: { node_code?: number; node_message?: string } = {},
): ErrorResponse {
  return { status: 500, body: { error: genericNodeError(chain), details: { reason, ...extra } } };
}

/**
 * Node failures with their details, an unusable node answer (logged: ours to look into), a client
 * that left, and query parameters given twice; a proxy adds its own codes to it.
 */
export function nodeErrorResponses(chain: ChainLabel, logger: Pick<Logger, "error">): ErrorResponseTable {
  const codes = nodeErrorCodes(chain.id);
  const failure = (error: ChaingateError) => {
    const { node_code: code, ...details } = nodeFailureDetails(error) ?? { reason: "node_error" as const };
    // A node API without error codes (java-tron's HTTP API reports 0) passes its message only.
    return nodeFailureResponse(chain, details.reason, code === undefined || code === 0 ? details : { ...details, node_code: code });
  };
  return {
    [codes.rpcError]: failure,
    [codes.unreachable]: failure,
    [codes.notConfigured]: failure,
    [codes.authFailed]: failure,
    [codes.badAnswer]: (error) => {
      logger.error({ err: error }, `unusable answer from the ${chain.name} node`);
      return failure(error);
    },
    [codes.aborted]: () => ({ status: CLIENT_CLOSED_REQUEST, body: { error: "The client closed the request." } }),
    invalid_query_parameter: (error) => ({ status: 400, body: { error: error.message } }),
  };
}
