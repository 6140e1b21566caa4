/**
 * A public JSON-RPC proxy's exchange, framework-free, for every chain's `POST …/jsonrpc`: the
 * policy decides before the node is contacted; a node answer with HTTP 200 is passed on unread
 * (the node's own envelopes, results and errors alike); a JSON-RPC 1.0 refusal (bitcoind's
 * 400/404/500) becomes 500 with the node's envelope; an unreachable node 502 -32603, one not
 * configured (or refusing our credentials) 500 -32603; a fault of the proxy's own 500 -32603,
 * named as such and handed back for logging.
 */
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import type { NodeClient } from "./create-node-client.ts";
import { JSONRPC_NODE_UNREACHABLE, jsonRpcProxyErrorBody, type JsonRpcProxyPolicy, type JsonValue } from "./jsonrpc-proxy-policy.ts";
import { NodeAuthError, NodeCallAbortedError, NodeNotConfiguredError, NodeUnreachableError } from "./node-errors.ts";

/** A refusal body the node wrote that is not JSON is quoted this far. */
const QUOTED_REFUSAL_CHARS = 500;

export type JsonRpcForwardOutcome =
  /** HTTP 200: the node's answer, to stream to the client as it is. */
  | { kind: "stream"; body: Readable }
  /** Answer `body` as JSON with `status`; `problem`, when present, is for the error log. */
  | { kind: "json"; status: number; body: unknown; problem?: { message: string; cause?: unknown } }
  /** The caller's signal fired: nobody to answer. */
  | { kind: "client-gone" };

export interface ForwardJsonRpcOptions {
  signal: AbortSignal;
  /** Rule 7's message, e.g. "Could not connect to BTC node." */
  unreachableMessage: string;
  notConfiguredMessage: string;
}

export async function forwardJsonRpc(node: NodeClient, policy: JsonRpcProxyPolicy, rawBody: Uint8Array | string, options: ForwardJsonRpcOptions): Promise<JsonRpcForwardOutcome> {
  const decision = policy.evaluate(rawBody);
  if (!decision.ok) return { kind: "json", status: decision.status, body: decision.body };
  const id: JsonValue = decision.isBatch ? null : (decision.forward[0]?.id ?? null);
  let answer;
  try {
    answer = await node.callRaw(decision.forwardBody, { signal: options.signal });
  } catch (error) {
    if (error instanceof NodeCallAbortedError) return { kind: "client-gone" };
    if (error instanceof NodeUnreachableError) return { kind: "json", status: 502, body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, options.unreachableMessage, id) };
    if (error instanceof NodeNotConfiguredError || error instanceof NodeAuthError) {
      return { kind: "json", status: 500, body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, options.notConfiguredMessage, id) };
    }
    return {
      kind: "json",
      status: 500,
      body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Internal error in the proxy.", id),
      problem: { message: "POST /jsonrpc failed unexpectedly", cause: error },
    };
  }
  if (answer.status === 200) return { kind: "stream", body: answer.body };
  // A JSON-RPC 1.0 refusal: small, read whole.
  const raw = await text(answer.body);
  try {
    return { kind: "json", status: 500, body: JSON.parse(raw) as unknown };
  } catch (cause) {
    const quoted = raw.slice(0, QUOTED_REFUSAL_CHARS);
    return {
      kind: "json",
      status: 500,
      body: { result: null, error: { code: -1, message: quoted }, id },
      problem: { message: `the node refused a JSON-RPC call with HTTP ${answer.status} and a body that is not JSON`, cause },
    };
  }
}
