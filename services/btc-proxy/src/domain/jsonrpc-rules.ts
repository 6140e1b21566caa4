/**
 * What `POST /api/v1/btc/jsonrpc` lets through to the Bitcoin node (spec, rules 1–5 and 8), as
 * data for the shared policy of @chaingate/chain-proxy: the spec's 15 methods and nothing else
 * (no wallet RPC ever reaches the node), JSON-RPC 1.0, `params` required, at most 20 calls a batch.
 */
import type { JsonRpcProxyPolicyOptions } from "@chaingate/chain-proxy";
import { BTC_JSONRPC_ALLOWED_METHODS, BTC_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";

/**
 * The protocol version written into every forwarded call. Bitcoin Core 28+ switches to JSON-RPC 2.0
 * semantics (HTTP 200 on errors, no reply to id-less calls, no `error: null`) when a request says
 * "2.0"; forcing "1.0" keeps the `{result, error, id}` envelope and status codes the spec promises
 * on every node version.
 */
export const FORWARDED_JSONRPC_VERSION = "1.0";

export const btcJsonRpcRules = {
  allowedMethods: BTC_JSONRPC_ALLOWED_METHODS,
  forwardedVersion: FORWARDED_JSONRPC_VERSION,
  maxBatchCalls: BTC_JSONRPC_MAX_BATCH_CALLS,
  // The spec's envelope: "params is required even when empty".
  paramsRequired: true,
  allowedDescription: "the read and broadcast methods this proxy forwards",
} as const satisfies JsonRpcProxyPolicyOptions;
