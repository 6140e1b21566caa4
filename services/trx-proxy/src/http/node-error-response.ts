/** The trx-proxy's error answers: the shared node-failure table (java-tron's errors carry a message, no code). */
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { genericNodeError, nodeErrorCodes, nodeErrorResponses as sharedNodeErrorResponses, nodeFailureResponse, tron, type NodeFailureReason } from "@chaingate/node-client";

export const GENERIC_NODE_ERROR = genericNodeError(tron);
export const TRX_CODES = nodeErrorCodes(tron.id);

export function nodeFailure(reason: NodeFailureReason, extra: { node_code?: number; node_message?: string } = {}): ErrorResponse {
  return nodeFailureResponse(tron, reason, extra);
}

/** An address (or hash) the proxy can tell is unparseable before asking the node. */
export const INVALID_ARGUMENT = nodeFailure("invalid_argument");

export function nodeErrorResponses(logger: Logger): ErrorResponseTable {
  return sharedNodeErrorResponses(tron, logger);
}
