/**
 * One JSON-RPC request to the node and what to answer for it: a node answer with HTTP 200 is passed
 * on unread (the node's own envelopes, results and errors alike); a JSON-RPC 1.0 refusal
 * (bitcoind's 400/404/500) becomes 500 with the node's envelope; an unreachable node 502 -32603,
 * one not configured (or refusing our credentials) 500 -32603; a fault of the proxy's own 500
 * -32603, named as such and handed back for logging.
 *
 * Every answer carries the content type to send it with: the node's own for what the node wrote,
 * exactly `application/json` (bitcoind's) for the proxy's refusals. Clients such as `bitcoin-core`
 * read an error body only under exactly that type.
 */
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { NodeAuthError, NodeCallAbortedError, NodeNotConfiguredError, NodeUnreachableError, type NodeClient } from "@chaingate/node-client";
import { JSONRPC_NODE_UNREACHABLE, jsonRpcProxyErrorBody, type JsonValue } from "./jsonrpc-proxy-policy.ts";

/** The content type of the proxy's own JSON-RPC answers: bitcoind's, without a charset parameter. */
export const JSONRPC_CONTENT_TYPE = "application/json";

/** A refusal body the node wrote that is not JSON is quoted this far. */
const QUOTED_REFUSAL_CHARS = 500;

export type JsonRpcForwardOutcome =
  /** HTTP 200: the node's answer, to stream to the client as it is. */
  | { kind: "stream"; contentType: string; body: Readable }
  /** Answer `body` as JSON with `status`; `problem`, when present, is for the error log. */
  | { kind: "json"; status: number; contentType: string; body: unknown; problem?: { message: string; cause?: unknown } }
  /** The caller's signal fired: nobody to answer. */
  | { kind: "client-gone" };

export interface JsonRpcExchangeOptions {
  signal: AbortSignal;
  /** Rule 7's message, e.g. "Could not connect to BTC node." */
  unreachableMessage: string;
  notConfiguredMessage: string;
}

/** Sends `forwardBody`; `id` is the one to answer a failure with (null for a batch). */
export async function exchangeJsonRpc(
  node: NodeClient,
  forwardBody: string,
  id: JsonValue,
  options: JsonRpcExchangeOptions,
): Promise<JsonRpcForwardOutcome> {
  let answer;
  try {
    answer = await node.callRaw(forwardBody, { signal: options.signal });
  } catch (error) {
    if (error instanceof NodeCallAbortedError) return { kind: "client-gone" };
    if (error instanceof NodeUnreachableError)
      return {
        kind: "json",
        contentType: JSONRPC_CONTENT_TYPE,
        status: 502,
        body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, options.unreachableMessage, id),
      };
    if (error instanceof NodeNotConfiguredError || error instanceof NodeAuthError) {
      return {
        kind: "json",
        contentType: JSONRPC_CONTENT_TYPE,
        status: 500,
        body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, options.notConfiguredMessage, id),
      };
    }
    return {
      kind: "json",
      contentType: JSONRPC_CONTENT_TYPE,
      status: 500,
      body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Internal error in the proxy.", id),
      problem: { message: "POST /jsonrpc failed unexpectedly", cause: error },
    };
  }
  if (answer.status === 200) return { kind: "stream", contentType: answer.contentType, body: answer.body };
  // A JSON-RPC 1.0 refusal: small, read whole.
  const raw = await text(answer.body);
  try {
    return { kind: "json", contentType: answer.contentType, status: 500, body: JSON.parse(raw) as unknown };
  } catch (cause) {
    const quoted = raw.slice(0, QUOTED_REFUSAL_CHARS);
    return {
      kind: "json",
      contentType: JSONRPC_CONTENT_TYPE,
      status: 500,
      body: { result: null, error: { code: -1, message: quoted }, id },
      problem: { message: `the node refused a JSON-RPC call with HTTP ${answer.status} and a body that is not JSON`, cause },
    };
  }
}
