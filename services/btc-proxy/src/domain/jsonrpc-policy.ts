/**
 * What `POST /api/v1/btc/jsonrpc` lets through to the Bitcoin node (spec, rules 1–9): the shared
 * JSON-RPC proxy policy of @chaingate/node-client with Bitcoin's allowlist. Wallet RPCs must never
 * reach the node, so the request is parsed, checked as a whole, and re-encoded from the parsed
 * value: the node only ever sees the members the policy wrote.
 */
import { createJsonRpcProxyPolicy, type JsonRpcPolicyDecision } from "@chaingate/node-client";

export { jsonRpcProxyErrorBody, type JsonRpcPolicyDecision } from "@chaingate/node-client";

/** Rule 1: the only methods forwarded, exactly as the spec lists them (case-sensitive, like bitcoind). */
export const ALLOWED_BITCOIN_RPC_METHODS = [
  "decoderawtransaction",
  "estimatesmartfee",
  "getbestblockhash",
  "getblock",
  "getblockchaininfo",
  "getblockcount",
  "getblockhash",
  "getblockheader",
  "getblockstats",
  "getdifficulty",
  "getmempoolinfo",
  "getrawtransaction",
  "gettxout",
  "sendrawtransaction",
  "testmempoolaccept",
] as const;

export type AllowedBitcoinRpcMethod = (typeof ALLOWED_BITCOIN_RPC_METHODS)[number];

/** Rule 3: calls per batch. */
export const MAX_BATCH_CALLS = 20;

/**
 * The protocol version written into every forwarded call. Bitcoin Core 28+ switches to JSON-RPC 2.0
 * semantics (HTTP 200 on errors, no reply to id-less calls, no `error: null`) when a request says
 * "2.0"; forcing "1.0" keeps the `{result, error, id}` envelope and status codes the spec promises
 * on every node version.
 */
export const FORWARDED_JSONRPC_VERSION = "1.0";

/** The policy of rules 1–5 and 8, for forwardJsonRpc. */
export const btcJsonRpcPolicy = createJsonRpcProxyPolicy({
  allowedMethods: ALLOWED_BITCOIN_RPC_METHODS,
  forwardedVersion: FORWARDED_JSONRPC_VERSION,
  maxBatchCalls: MAX_BATCH_CALLS,
  // The spec's envelope: "params is required even when empty".
  paramsRequired: true,
  allowedDescription: "the read and broadcast methods this proxy forwards",
});

/**
 * Checks a raw `POST /api/v1/btc/jsonrpc` body (bytes or text) against rules 1–5 and 8.
 * Precedence when several rules fail: unparseable JSON (400 -32700), then the body's shape (not an
 * object/array, nested too deep, empty batch, batch over 20: 400 -32600), then any disallowed
 * method anywhere (403 -32601, even if other calls are also malformed), then the first malformed
 * call (400 -32600).
 */
export function evaluateJsonRpcRequest(rawBody: string | Uint8Array): JsonRpcPolicyDecision {
  return btcJsonRpcPolicy.evaluate(rawBody);
}

/** As evaluateJsonRpcRequest, for a body already parsed as JSON (e.g. by a body parser). */
export function evaluateParsedJsonRpcRequest(parsed: unknown): JsonRpcPolicyDecision {
  return btcJsonRpcPolicy.evaluateParsed(parsed);
}
