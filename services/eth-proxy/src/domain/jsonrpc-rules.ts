/**
 * What `POST /api/v1/eth/jsonrpc` lets through to the Ethereum node, as data for the shared policy
 * of @chaingate/chain-proxy: the read methods and eth_sendRawTransaction. Everything else
 * (eth_sendTransaction, eth_sign*, eth_accounts, personal_*, admin_*, debug_*, miner_*, txpool_*,
 * hardhat_*, evm_*, the filter and subscription methods, whose state lives in one node and breaks
 * under failover, and any unknown name) is refused with -32601 before the node is contacted.
 */
import type { JsonRpcProxyPolicyOptions } from "@chaingate/chain-proxy";
import { ETH_JSONRPC_ALLOWED_METHODS, ETH_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";

export const ethJsonRpcRules = {
  allowedMethods: ETH_JSONRPC_ALLOWED_METHODS,
  forwardedVersion: "2.0",
  // The default of JSONRPC_MAX_BATCH.
  maxBatchCalls: ETH_JSONRPC_MAX_BATCH_CALLS,
  // JSON-RPC 2.0 lets a call without parameters omit them.
  paramsRequired: false,
  allowedDescription: "the read and broadcast methods this proxy forwards",
} as const satisfies JsonRpcProxyPolicyOptions;
