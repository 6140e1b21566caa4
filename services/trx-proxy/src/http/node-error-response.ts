/**
 * The spec's answer for a failed node call: 500 with the generic `Could not connect to TRX node.`
 * (kept for compatibility) and `details` saying what really happened (the reason vocabulary every
 * proxy shares; the node's own message when it refused the call).
 */
import type { ChaingateError } from "@chaingate/errors";
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { nodeErrorCodes, nodeFailureDetails, tron, type NodeFailureReason } from "@chaingate/node-client";

export const GENERIC_NODE_ERROR = "Could not connect to TRX node.";
/** nginx's status for a client that went away: nobody reads it, the access log does. */
const CLIENT_CLOSED_REQUEST = 499;
export const TRX_CODES = nodeErrorCodes(tron.id);

export function nodeFailure(reason: NodeFailureReason, extra: { node_code?: number | string; node_message?: string } = {}): ErrorResponse {
  return { status: 500, body: { error: GENERIC_NODE_ERROR, details: { reason, ...extra } } };
}

/** An address (or hash) the proxy can tell is unparseable before asking the node. */
export const INVALID_ARGUMENT = nodeFailure("invalid_argument");

export function nodeErrorResponses(logger: Logger): ErrorResponseTable {
  const failure = (error: ChaingateError) => {
    const details = nodeFailureDetails(error);
    // java-tron's HTTP API has no error codes (the adapter reports 0): only the message is passed.
    const { node_code: code, ...rest } = details ?? { reason: "node_error" as const };
    return nodeFailure(rest.reason, code === 0 ? rest : { ...rest, node_code: code });
  };
  return {
    [TRX_CODES.rpcError]: failure,
    [TRX_CODES.unreachable]: failure,
    [TRX_CODES.notConfigured]: failure,
    [TRX_CODES.authFailed]: failure,
    [TRX_CODES.badAnswer]: (error) => {
      logger.error({ err: error }, "unusable answer from the Tron node");
      return failure(error);
    },
    [TRX_CODES.aborted]: () => ({ status: CLIENT_CLOSED_REQUEST, body: { error: "The client closed the request." } }),
    invalid_query_parameter: (error) => ({ status: 400, body: { error: error.message } }),
  };
}
