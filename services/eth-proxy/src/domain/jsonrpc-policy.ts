/**
 * What `POST /api/v1/eth/jsonrpc` lets through to the Ethereum node: the shared JSON-RPC proxy
 * policy of @chaingate/node-client with the read methods and eth_sendRawTransaction. Everything
 * else (eth_sendTransaction, eth_sign*, eth_accounts, personal_*, admin_*, debug_*, miner_*,
 * txpool_*, hardhat_*, evm_*, the filter and subscription methods, whose state lives in one node and
 * breaks under failover, and any unknown name) is refused with -32601 before the node is contacted.
 */
import { ETH_JSONRPC_ALLOWED_METHODS, ETH_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";
import { createJsonRpcProxyPolicy, type JsonRpcProxyPolicy } from "@chaingate/node-client";

/** The policy with at most `maxBatchCalls` calls per batch (JSONRPC_MAX_BATCH). */
export function createEthJsonRpcPolicy(maxBatchCalls: number = ETH_JSONRPC_MAX_BATCH_CALLS): JsonRpcProxyPolicy {
  return createJsonRpcProxyPolicy({
    allowedMethods: ETH_JSONRPC_ALLOWED_METHODS,
    forwardedVersion: "2.0",
    maxBatchCalls,
    // JSON-RPC 2.0 lets a call without parameters omit them.
    paramsRequired: false,
    allowedDescription: "the read and broadcast methods this proxy forwards",
  });
}
