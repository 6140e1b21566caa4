/**
 * What `POST /api/v1/btc/jsonrpc` lets through to the Bitcoin node (spec, rules 1–9). Wallet RPCs
 * must never reach the node, so the request is parsed, checked as a whole, and re-encoded from the
 * parsed value: the node only ever sees the members this module wrote.
 */

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
/** A method name echoed in a 403 message is cut to this length (it is client input). */
const MAX_ECHOED_METHOD_CHARS = 64;
/**
 * The protocol version written into every forwarded call. Bitcoin Core 28+ switches to JSON-RPC 2.0
 * semantics (HTTP 200 on errors, no reply to id-less calls, no `error: null`) when a request says
 * "2.0"; forcing "1.0" keeps the `{result, error, id}` envelope and status codes the spec promises
 * on every node version.
 */
export const FORWARDED_JSONRPC_VERSION = "1.0";

/** Rule 8 and the spec's error table. */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_ALLOWED = -32601;
/** Rule 7: the proxy cannot reach the node. */
export const JSONRPC_NODE_UNREACHABLE = -32603;

/** A JSON value as produced by JSON.parse. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One call as forwarded to the node: only these members, in this order. */
export interface ForwardedJsonRpcCall {
  jsonrpc: typeof FORWARDED_JSONRPC_VERSION;
  method: AllowedBitcoinRpcMethod;
  params: JsonValue[];
  /** Absent when the client sent none (the node then answers with id null). */
  id?: JsonValue;
}

/** The body of a proxy-level rejection (rule 8): no `result` member. */
export interface JsonRpcProxyErrorBody {
  error: { code: number; message: string };
  /** The request's id for a single call that had one; null for batches, unparseable bodies and id-less calls. */
  id: JsonValue;
}

export type JsonRpcPolicyDecision =
  | {
      ok: true;
      isBatch: boolean;
      /** The calls to forward, re-encoded; a single request is a one-element array. */
      forward: ForwardedJsonRpcCall[];
      /** The exact body to send to the node: one object for a single call, an array for a batch. */
      forwardBody: string;
    }
  | { ok: false; status: 400 | 403; body: JsonRpcProxyErrorBody };

const ALLOWED = new Set<string>(ALLOWED_BITCOIN_RPC_METHODS);

/**
 * Checks a raw `POST /api/v1/btc/jsonrpc` body (bytes or text) against rules 1–5 and 8.
 * Precedence when several rules fail: unparseable JSON (400 -32700), then the body's shape (not an
 * object/array, empty batch, batch over 20: 400 -32600), then any disallowed method anywhere
 * (403 -32601, even if other calls are also malformed), then the first malformed call (400 -32600).
 */
export function evaluateJsonRpcRequest(rawBody: string | Uint8Array): JsonRpcPolicyDecision {
  let parsed: JsonValue;
  try {
    const text = typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: true }).decode(rawBody);
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    return reject(400, JSONRPC_PARSE_ERROR, "Parse error: the request body is not valid JSON.", null);
  }
  return evaluateParsedJsonRpcRequest(parsed);
}

/** As evaluateJsonRpcRequest, for a body already parsed as JSON (e.g. by a body parser). */
export function evaluateParsedJsonRpcRequest(parsed: unknown): JsonRpcPolicyDecision {
  if (Array.isArray(parsed)) return evaluateBatch(parsed as JsonValue[]);
  if (!isObject(parsed)) {
    return reject(400, JSONRPC_INVALID_REQUEST, "Invalid request: the body must be a JSON-RPC request object or an array of them.", null);
  }
  const id = idOf(parsed);
  const call = checkCall(parsed);
  if (call.kind === "disallowed") return reject(403, JSONRPC_METHOD_NOT_ALLOWED, disallowedMessage(call.method), id);
  if (call.kind === "invalid") return reject(400, JSONRPC_INVALID_REQUEST, `Invalid request: ${call.reason}`, id);
  return { ok: true, isBatch: false, forward: [call.call], forwardBody: JSON.stringify(call.call) };
}

/** Builds a proxy-level error body (rules 7 and 8), e.g. for the node-unreachable 502. */
export function jsonRpcProxyErrorBody(code: number, message: string, id: JsonValue = null): JsonRpcProxyErrorBody {
  return { error: { code, message }, id };
}

function evaluateBatch(batch: JsonValue[]): JsonRpcPolicyDecision {
  if (batch.length === 0) {
    return reject(400, JSONRPC_INVALID_REQUEST, "Invalid request: the batch is empty; send at least one call.", null);
  }
  if (batch.length > MAX_BATCH_CALLS) {
    return reject(400, JSONRPC_INVALID_REQUEST, `Invalid request: the batch has ${batch.length} calls; at most ${MAX_BATCH_CALLS} are allowed.`, null);
  }
  const checked = batch.map(
    (element): CheckedCall => (isObject(element) ? checkCall(element) : { kind: "invalid", reason: "the element is not a request object." }),
  );
  // Rule 3: one disallowed method rejects the whole batch, whatever else is wrong with it.
  const disallowed = checked.findIndex((call) => call.kind === "disallowed");
  if (disallowed !== -1) {
    const call = checked[disallowed] as Extract<CheckedCall, { kind: "disallowed" }>;
    return reject(403, JSONRPC_METHOD_NOT_ALLOWED, `${disallowedMessage(call.method)} (batch index ${disallowed}; nothing in the batch was sent)`, null);
  }
  const forward: ForwardedJsonRpcCall[] = [];
  for (const [index, call] of checked.entries()) {
    if (call.kind !== "ok") return reject(400, JSONRPC_INVALID_REQUEST, `Invalid request at batch index ${index}: ${call.kind === "invalid" ? call.reason : "method not allowed."}`, null);
    forward.push(call.call);
  }
  return { ok: true, isBatch: true, forward, forwardBody: JSON.stringify(forward) };
}

type CheckedCall =
  | { kind: "ok"; call: ForwardedJsonRpcCall }
  | { kind: "disallowed"; method: string }
  | { kind: "invalid"; reason: string };

function checkCall(request: { [key: string]: JsonValue }): CheckedCall {
  const method = own(request, "method");
  if (typeof method !== "string") return { kind: "invalid", reason: "method is missing or not a string." };
  if (!ALLOWED.has(method)) return { kind: "disallowed", method };
  const jsonrpc = own(request, "jsonrpc");
  if (jsonrpc !== undefined && typeof jsonrpc !== "string") return { kind: "invalid", reason: "jsonrpc must be a string." };
  // The spec's envelope: "params is required even when empty". Named (object) params are refused
  // too: the envelope types params as an array.
  const params = own(request, "params");
  if (params === undefined) return { kind: "invalid", reason: "params is required; send [] when the method takes none." };
  if (!Array.isArray(params)) return { kind: "invalid", reason: "params must be an array." };
  const call: ForwardedJsonRpcCall = { jsonrpc: FORWARDED_JSONRPC_VERSION, method: method as AllowedBitcoinRpcMethod, params };
  const id = own(request, "id");
  if (id !== undefined) call.id = id;
  return { kind: "ok", call };
}

function disallowedMessage(method: string): string {
  const shown = method.length > MAX_ECHOED_METHOD_CHARS ? `${method.slice(0, MAX_ECHOED_METHOD_CHARS)}…` : method;
  return `Method not allowed: ${JSON.stringify(shown)} is not one of the read and broadcast methods this proxy forwards`;
}

function reject(status: 400 | 403, code: number, message: string, id: JsonValue): JsonRpcPolicyDecision {
  return { ok: false, status, body: jsonRpcProxyErrorBody(code, message, id) };
}

function idOf(request: { [key: string]: JsonValue }): JsonValue {
  return own(request, "id") ?? null;
}

/** Reads only own members: `{"__proto__": ...}` or inherited names must not count as present. */
function own(object: { [key: string]: JsonValue }, key: string): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
