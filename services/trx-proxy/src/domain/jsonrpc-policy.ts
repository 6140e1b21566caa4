/**
 * What `POST /api/v1/trx/jsonrpc` lets through to java-tron's eth-compatible `/jsonrpc`: the shared
 * JSON-RPC proxy policy of @chaingate/node-client with Tron's read methods. Everything else (the
 * send/sign methods java-tron refuses anyway, `buildTransaction`, and the filter methods, whose
 * state lives in one node and breaks under failover) is refused with -32601 before the node is
 * contacted.
 */
import { ETH_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";
import { createJsonRpcProxyPolicy, type JsonRpcProxyPolicy } from "@chaingate/node-client";

/** java-tron's read methods (research §12). */
export const ALLOWED_TRON_JSONRPC_METHODS = [
  "web3_clientVersion",
  "web3_sha3",
  "net_version",
  "net_listening",
  "net_peerCount",
  "eth_chainId",
  "eth_protocolVersion",
  "eth_syncing",
  "eth_blockNumber",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getStorageAt",
  "eth_getCode",
  "eth_call",
  "eth_estimateGas",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getBlockTransactionCountByNumber",
  "eth_getTransactionByHash",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionReceipt",
  "eth_getLogs",
  "eth_getBlockReceipts",
] as const;

/** Calls per batch, as the Bitcoin proxy. */
/** Calls per batch by default (JSONRPC_MAX_BATCH), as for Ethereum. */
export const MAX_BATCH_CALLS = ETH_JSONRPC_MAX_BATCH_CALLS;

/** The policy with at most `maxBatchCalls` calls per batch. */
export function createTrxJsonRpcPolicy(maxBatchCalls: number = MAX_BATCH_CALLS): JsonRpcProxyPolicy {
  return createJsonRpcProxyPolicy({
    allowedMethods: ALLOWED_TRON_JSONRPC_METHODS,
    forwardedVersion: "2.0",
    maxBatchCalls,
    paramsRequired: false,
    allowedDescription: "the read methods this proxy forwards",
  });
}
