/** The btc-proxy's error answers: the shared node-failure table (see @chaingate/node-client's node-error-responses.ts). */
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { bitcoin, genericNodeError, nodeErrorResponses as sharedNodeErrorResponses, nodeFailureResponse, type NodeFailureReason } from "@chaingate/node-client";

export const GENERIC_NODE_ERROR = genericNodeError(bitcoin);

export function nodeFailure(reason: NodeFailureReason, extra: { node_code?: number; node_message?: string } = {}): ErrorResponse {
  return nodeFailureResponse(bitcoin, reason, extra);
}

export function nodeErrorResponses(logger: Logger): ErrorResponseTable {
  return sharedNodeErrorResponses(bitcoin, logger);
}
