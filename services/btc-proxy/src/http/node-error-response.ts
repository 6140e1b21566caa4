/**
 * The spec's answer for a failed node call on the REST endpoints: 500 with the generic
 * `Could not connect to BTC node.` (kept for compatibility), plus a `details` object saying what
 * really happened, so an integrator tells an unknown id from an outage without a second call.
 */
import type { ChaingateError } from "@chaingate/errors";
import type { ErrorResponse, ErrorResponseTable } from "@chaingate/http";
import type { BitcoinNodeRpcError } from "../infra/bitcoin-rpc-errors.ts";

export const GENERIC_NODE_ERROR = "Could not connect to BTC node.";

/** Bitcoin Core RPC codes (src/rpc/protocol.h) that mean "no such thing" or "bad argument". */
const NOT_FOUND_CODES = new Set([-5]);
const INVALID_ARGUMENT_CODES = new Set([-1, -3, -8, -22]);

export type NodeFailureReason = "not_found" | "invalid_argument" | "node_error" | "node_unreachable" | "not_configured";

export function nodeFailure(reason: NodeFailureReason, extra: { node_code?: number; node_message?: string } = {}): ErrorResponse {
  return { status: 500, body: { error: GENERIC_NODE_ERROR, details: { reason, ...extra } } };
}

export function reasonForRpcCode(code: number): NodeFailureReason {
  if (NOT_FOUND_CODES.has(code)) return "not_found";
  if (INVALID_ARGUMENT_CODES.has(code)) return "invalid_argument";
  return "node_error";
}

export const nodeErrorResponses: ErrorResponseTable = {
  btc_node_rpc_error: (error: ChaingateError) => {
    const { rpcCode, rpcMessage } = error as BitcoinNodeRpcError;
    return nodeFailure(reasonForRpcCode(rpcCode), { node_code: rpcCode, node_message: rpcMessage });
  },
  btc_node_unreachable: () => nodeFailure("node_unreachable"),
  btc_node_not_configured: () => nodeFailure("not_configured"),
  // Wrong node credentials are an operator's configuration problem, not the client's.
  btc_node_auth_failed: () => nodeFailure("not_configured"),
};
