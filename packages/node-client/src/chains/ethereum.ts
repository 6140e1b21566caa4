/** Ethereum execution clients (geth, erigon, Hardhat Network): JSON-RPC 2.0, errors inside HTTP 200. */
import { JSONRPC_2_0, reasonTable, type NodeChain } from "../node-chain.ts";

/**
 * EIP-1474 codes: -32700 parse error, -32600 invalid request, -32602 invalid params: the
 * request's fault. A missing transaction or receipt is a `null` result, not an error, so no code
 * means not_found here; -32000 (geth's catch-all), 3 (execution reverted) and the rest are the node's.
 */
export const ETHEREUM_REASON_CODES = { invalid_argument: [-32700, -32600, -32602] } as const;

export const ethereum: NodeChain = {
  id: "eth",
  name: "Ethereum",
  envelope: JSONRPC_2_0,
  answerStatuses: new Set([200]),
  requiresAuth: false,
  jsonRpcPath: "",
  reasonFor: reasonTable(ETHEREUM_REASON_CODES),
};

/** Another EVM chain's nodes (EVM_CHAINS): Ethereum's protocol, under the chain's own id (its API prefix) and name. */
export function evmChain(id: string, name: string): NodeChain {
  return { ...ethereum, id, name };
}
