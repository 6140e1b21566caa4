/** The eth-proxy's error answers: the shared node-failure table plus bad parameters and missing records. */
import type { ValidationError } from "@chaingate/errors";
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import { ethereum, genericNodeError, nodeErrorResponses as sharedNodeErrorResponses, nodeFailureResponse, type NodeFailureReason } from "@chaingate/node-client";

export const GENERIC_NODE_ERROR = genericNodeError(ethereum);

export function nodeFailure(reason: NodeFailureReason, extra: { node_code?: number; node_message?: string } = {}): ErrorResponse {
  return nodeFailureResponse(ethereum, reason, extra);
}

export function nodeErrorResponses(logger: Logger): ErrorResponseTable {
  return {
    ...sharedNodeErrorResponses(ethereum, logger),
    eth_not_found: () => nodeFailure("not_found"),
    eth_bad_parameter: (error) => ({ status: 400, body: { error: error.message } }),
    // The spec's eth 422 is `{error}` naming the field (rule 6); `message` and `errors` are every
    // other 422's, kept so one client reads both.
    validation_failed: (error) => ({ status: 422, body: { error: error.message, message: error.message, errors: (error as ValidationError).fieldErrors } }),
  };
}
