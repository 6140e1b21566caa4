/**
 * What a chain's public JSON-RPC proxy lets through to its node: the request is parsed, checked as
 * a whole (envelope, batch rules, the chain's allowlist, nesting depth) and re-encoded from the
 * parsed value, so the node only ever sees the members written here. Parameterised per chain:
 * the btc-proxy (JSON-RPC 1.0), the eth-proxy and the trx-proxy's `/jsonrpc` (2.0).
 */

/** One decoder for every request: a non-streaming decode keeps no state between calls. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** JSON-RPC error codes of proxy-level refusals (and of the spec's error table). */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_ALLOWED = -32601;
/** The proxy cannot reach the node (or the node is not configured). */
export const JSONRPC_NODE_UNREACHABLE = -32603;

/** A method name echoed in a 403 message is cut to this length (it is client input). */
const MAX_ECHOED_METHOD_CHARS = 64;
/** Default nesting bound of a request (objects and arrays); deeper requests are refused before anything re-encodes them. */
export const DEFAULT_MAX_JSONRPC_DEPTH = 64;

/** A JSON value as produced by JSON.parse. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One call as forwarded to the node: only these members. */
export interface ForwardedJsonRpcCall {
  jsonrpc: "1.0" | "2.0";
  method: string;
  params: JsonValue[];
  /** Absent when the client sent none. */
  id?: JsonValue;
}

/** The body of a proxy-level refusal: no `result` member. */
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

export interface JsonRpcProxyPolicyOptions {
  /** The only methods forwarded (case-sensitive). */
  allowedMethods: readonly string[];
  /** The version written into every forwarded call, whatever the client sent. */
  forwardedVersion: "1.0" | "2.0";
  /** Calls per batch. */
  maxBatchCalls: number;
  /** Whether `params` must be present (the btc spec: "required even when empty"); otherwise a missing one is forwarded as []. */
  paramsRequired: boolean;
  /** Ends the 403 message: what the allowed methods are, e.g. "the read and broadcast methods this proxy forwards". */
  allowedDescription: string;
  maxDepth?: number;
}

export interface JsonRpcProxyPolicy {
  /**
   * Checks a raw body (bytes or text). Precedence when several rules fail: unparseable JSON (400
   * -32700), then the body's shape (not an object/array, too deep, empty batch, batch too large:
   * 400 -32600), then any disallowed method anywhere (403 -32601, even if other calls are also
   * malformed), then the first malformed call (400 -32600).
   */
  evaluate(rawBody: string | Uint8Array): JsonRpcPolicyDecision;
  /** As evaluate, for a body already parsed as JSON. */
  evaluateParsed(parsed: unknown): JsonRpcPolicyDecision;
}

type CheckedCall =
  | { kind: "ok"; call: ForwardedJsonRpcCall }
  | { kind: "disallowed"; method: string }
  | { kind: "invalid"; reason: string };

export function createJsonRpcProxyPolicy(options: JsonRpcProxyPolicyOptions): JsonRpcProxyPolicy {
  const allowed = new Set(options.allowedMethods);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSONRPC_DEPTH;

  function checkCall(request: { [key: string]: JsonValue }): CheckedCall {
    const method = own(request, "method");
    if (typeof method !== "string") return { kind: "invalid", reason: "method is missing or not a string." };
    if (!allowed.has(method)) return { kind: "disallowed", method };
    const jsonrpc = own(request, "jsonrpc");
    if (jsonrpc !== undefined && typeof jsonrpc !== "string") return { kind: "invalid", reason: "jsonrpc must be a string." };
    // Named (object) params are refused: the envelope types params as an array.
    let params = own(request, "params");
    if (params === undefined) {
      if (options.paramsRequired) return { kind: "invalid", reason: "params is required; send [] when the method takes none." };
      params = [];
    }
    if (!Array.isArray(params)) return { kind: "invalid", reason: "params must be an array." };
    const id = own(request, "id");
    // 1.0 keeps the member order bitcoind's own clients are answered in; 2.0 writes jsonrpc and id first.
    const call: ForwardedJsonRpcCall =
      options.forwardedVersion === "1.0"
        ? { jsonrpc: "1.0", method, params }
        : { jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method, params };
    if (id !== undefined) call.id = id; // last in 1.0; in 2.0 already placed second
    return { kind: "ok", call };
  }

  function disallowedMessage(method: string): string {
    const shown = method.length > MAX_ECHOED_METHOD_CHARS ? `${method.slice(0, MAX_ECHOED_METHOD_CHARS)}…` : method;
    return `Method not allowed: ${JSON.stringify(shown)} is not one of ${options.allowedDescription}`;
  }

  function evaluateBatch(batch: JsonValue[]): JsonRpcPolicyDecision {
    if (batch.length === 0)
      return reject(400, JSONRPC_INVALID_REQUEST, "Invalid request: the batch is empty; send at least one call.", null);
    if (batch.length > options.maxBatchCalls) {
      return reject(
        400,
        JSONRPC_INVALID_REQUEST,
        `Invalid request: the batch has ${batch.length} calls; at most ${options.maxBatchCalls} are allowed.`,
        null,
      );
    }
    const checked = batch.map(
      (element): CheckedCall =>
        isObject(element) ? checkCall(element) : { kind: "invalid", reason: "the element is not a request object." },
    );
    // One disallowed method refuses the whole batch, whatever else is wrong with it.
    const disallowed = checked.findIndex((call) => call.kind === "disallowed");
    if (disallowed !== -1) {
      const call = checked[disallowed] as Extract<CheckedCall, { kind: "disallowed" }>;
      return reject(
        403,
        JSONRPC_METHOD_NOT_ALLOWED,
        `${disallowedMessage(call.method)} (batch index ${disallowed}; nothing in the batch was sent)`,
        null,
      );
    }
    const forward: ForwardedJsonRpcCall[] = [];
    for (const [index, call] of checked.entries()) {
      if (call.kind !== "ok")
        return reject(
          400,
          JSONRPC_INVALID_REQUEST,
          `Invalid request at batch index ${index}: ${call.kind === "invalid" ? call.reason : "method not allowed."}`,
          null,
        );
      forward.push(call.call);
    }
    // Encoded only when asked for: a batch forwarded in chunks encodes each chunk instead.
    return {
      ok: true,
      isBatch: true,
      forward,
      get forwardBody() {
        return JSON.stringify(forward);
      },
    };
  }

  const policy: JsonRpcProxyPolicy = {
    evaluate(rawBody) {
      let parsed: JsonValue;
      try {
        const text = typeof rawBody === "string" ? rawBody : UTF8.decode(rawBody);
        parsed = JSON.parse(text) as JsonValue;
      } catch {
        return reject(400, JSONRPC_PARSE_ERROR, "Parse error: the request body is not valid JSON.", null);
      }
      return policy.evaluateParsed(parsed);
    },
    evaluateParsed(parsed) {
      if (exceedsDepth(parsed, maxDepth)) {
        return reject(
          400,
          JSONRPC_INVALID_REQUEST,
          `Invalid request: the body nests JSON more than ${maxDepth} levels deep.`,
          scalarIdOf(parsed),
        );
      }
      if (Array.isArray(parsed)) return evaluateBatch(parsed as JsonValue[]);
      if (!isObject(parsed))
        return reject(
          400,
          JSONRPC_INVALID_REQUEST,
          "Invalid request: the body must be a JSON-RPC request object or an array of them.",
          null,
        );
      const id = idOf(parsed);
      const call = checkCall(parsed);
      if (call.kind === "disallowed") return reject(403, JSONRPC_METHOD_NOT_ALLOWED, disallowedMessage(call.method), id);
      if (call.kind === "invalid") return reject(400, JSONRPC_INVALID_REQUEST, `Invalid request: ${call.reason}`, id);
      return { ok: true, isBatch: false, forward: [call.call], forwardBody: JSON.stringify(call.call) };
    },
  };
  return policy;
}

/** Builds a proxy-level error body, e.g. for the node-unreachable 502. */
export function jsonRpcProxyErrorBody(code: number, message: string, id: JsonValue = null): JsonRpcProxyErrorBody {
  return { error: { code, message }, id };
}

function reject(status: 400 | 403, code: number, message: string, id: JsonValue): JsonRpcPolicyDecision {
  return { ok: false, status, body: jsonRpcProxyErrorBody(code, message, id) };
}

function idOf(request: { [key: string]: JsonValue }): JsonValue {
  return own(request, "id") ?? null;
}

/** The id echoed in a too-deep refusal: only a scalar, so a deep id cannot break the refusal's own encoding. */
function scalarIdOf(parsed: unknown): JsonValue {
  const id = isObject(parsed) ? idOf(parsed) : null;
  return typeof id === "object" ? null : id;
}

/** Whether `value` nests arrays/objects deeper than `maxDepth`: an iterative walk, no recursion to overflow. */
function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(current))
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** Reads only own members: `{"__proto__": ...}` or inherited names must not count as present. */
function own(object: { [key: string]: JsonValue }, key: string): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
