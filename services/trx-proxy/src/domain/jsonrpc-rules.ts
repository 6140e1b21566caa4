/**
 * What `POST /api/v1/trx/jsonrpc` lets through to java-tron's eth-compatible `/jsonrpc`, as data
 * for the shared policy of @chaingate/chain-proxy: Tron's read methods. Everything else (the
 * send/sign methods java-tron refuses anyway, `buildTransaction`, and the filter methods, whose
 * state lives in one node and breaks under failover) is refused with -32601 before the node is
 * contacted.
 */
import type { JsonRpcProxyPolicyOptions } from "@chaingate/chain-proxy";
import { TRX_JSONRPC_ALLOWED_METHODS, TRX_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";

export const trxJsonRpcRules = {
  allowedMethods: TRX_JSONRPC_ALLOWED_METHODS,
  forwardedVersion: "2.0",
  // The default of JSONRPC_MAX_BATCH, as for Ethereum.
  maxBatchCalls: TRX_JSONRPC_MAX_BATCH_CALLS,
  paramsRequired: false,
  allowedDescription: "the read methods this proxy forwards",
} as const satisfies JsonRpcProxyPolicyOptions;
