/** Bitcoin Core (and its forks with the same RPC: litecoind): JSON-RPC 1.0, credentials required. */
import { JSONRPC_1_0, reasonTable, type NodeChain } from "../node-chain.ts";

/**
 * Bitcoin Core RPC codes (src/rpc/protocol.h): -5 RPC_INVALID_ADDRESS_OR_KEY (no such block or
 * transaction); -1 RPC_MISC_ERROR (e.g. a malformed hash), -3 RPC_TYPE_ERROR, -8
 * RPC_INVALID_PARAMETER (height out of range), -22 RPC_DESERIALIZATION_ERROR (undecodable hex).
 */
export const BITCOIN_REASON_CODES = { not_found: [-5], invalid_argument: [-1, -3, -8, -22] } as const;

const reasonFor = reasonTable(BITCOIN_REASON_CODES);

export const bitcoin: NodeChain = {
  id: "btc",
  name: "Bitcoin",
  envelope: JSONRPC_1_0,
  answerStatuses: new Set([200, 400, 404, 500]),
  requiresAuth: true,
  jsonRpcPath: "",
  reasonFor,
};
