/**
 * A public JSON-RPC proxy's exchange, framework-free, for every chain's `POST …/jsonrpc`: the
 * policy decides before the node is contacted; a node answer with HTTP 200 is passed on unread
 * (the node's own envelopes, results and errors alike); a JSON-RPC 1.0 refusal (bitcoind's
 * 400/404/500) becomes 500 with the node's envelope; an unreachable node 502 -32603, one not
 * configured (or refusing our credentials) 500 -32603; a fault of the proxy's own 500 -32603,
 * named as such and handed back for logging.
 *
 * A batch larger than the node's own limit (`nodeBatchCalls`) is sent in chunks of that size, a
 * few at a time, and answered as one array: the chunks' answers in request order, each chunk's as
 * the node ordered them. The first chunk decides the status as a single exchange would (a node that
 * cannot be reached is 502); a later chunk that fails is answered inside the 200, one error
 * envelope per call of it that has an id, since the array has started by then.
 *
 * Every answer carries the content type to send it with: the node's own for what the node wrote,
 * exactly `application/json` (bitcoind's) for the proxy's refusals. Clients such as `bitcoin-core`
 * read an error body only under exactly that type.
 */
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { NodeAuthError, NodeCallAbortedError, NodeNotConfiguredError, NodeUnreachableError, type NodeClient } from "@chaingate/node-client";
import {
  JSONRPC_NODE_UNREACHABLE,
  jsonRpcProxyErrorBody,
  type ForwardedJsonRpcCall,
  type JsonRpcProxyPolicy,
  type JsonValue,
} from "./jsonrpc-proxy-policy.ts";

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

export interface ForwardJsonRpcOptions {
  signal: AbortSignal;
  /** Rule 7's message, e.g. "Could not connect to BTC node." */
  unreachableMessage: string;
  notConfiguredMessage: string;
  /** Calls per request to the node (its own batch limit); a larger batch is sent in chunks. Unset: no limit. */
  nodeBatchCalls?: number | undefined;
}

/** Chunks of one batch in flight to the node at once. */
export const NODE_CHUNKS_IN_FLIGHT = 4;

export async function forwardJsonRpc(
  node: NodeClient,
  policy: JsonRpcProxyPolicy,
  rawBody: Uint8Array | string,
  options: ForwardJsonRpcOptions,
): Promise<JsonRpcForwardOutcome> {
  const decision = policy.evaluate(rawBody);
  if (!decision.ok) return { kind: "json", contentType: JSONRPC_CONTENT_TYPE, status: decision.status, body: decision.body };
  const nodeBatchCalls = options.nodeBatchCalls ?? Number.POSITIVE_INFINITY;
  if (decision.isBatch && decision.forward.length > nodeBatchCalls) return forwardInChunks(node, decision.forward, nodeBatchCalls, options);
  const id: JsonValue = decision.isBatch ? null : (decision.forward[0]?.id ?? null);
  return exchange(node, decision.forwardBody, id, options);
}

/** One request to the node and what to answer for it. */
async function exchange(
  node: NodeClient,
  forwardBody: string,
  id: JsonValue,
  options: ForwardJsonRpcOptions,
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

type ChunkAnswer =
  | { kind: "elements"; contentType: string; text: string }
  | { kind: "failed"; outcome: Extract<JsonRpcForwardOutcome, { kind: "json" }> }
  | { kind: "client-gone" };

async function forwardInChunks(
  node: NodeClient,
  calls: ForwardedJsonRpcCall[],
  nodeBatchCalls: number,
  options: ForwardJsonRpcOptions,
): Promise<JsonRpcForwardOutcome> {
  const chunks: ForwardedJsonRpcCall[][] = [];
  for (let start = 0; start < calls.length; start += nodeBatchCalls) chunks.push(calls.slice(start, start + nodeBatchCalls));
  const answers: Promise<ChunkAnswer>[] = [];
  // At most NODE_CHUNKS_IN_FLIGHT exchanges at once: each finished one starts the next, so every
  // chunk has started by the time the ones before it have been answered.
  const startNext = () => {
    const index = answers.length;
    const chunk = chunks[index];
    if (!chunk) return;
    answers.push(
      exchange(node, JSON.stringify(chunk), null, options)
        .then((outcome) => readChunk(outcome, chunk))
        // The node's body broke off mid-way: that chunk's calls fail, the others stand.
        .catch((): ChunkAnswer => ({ kind: "elements", contentType: JSONRPC_CONTENT_TYPE, text: errorEnvelopes(chunk, undefined) }))
        .finally(startNext),
    );
  };
  for (let i = 0; i < Math.min(NODE_CHUNKS_IN_FLIGHT, chunks.length); i++) startNext();
  const first = await answers[0]!;
  if (first.kind === "client-gone") return first;
  if (first.kind === "failed") return first.outcome;
  async function* joined(): AsyncGenerator<string> {
    let opened = false;
    for (const [index, pending] of answers.entries()) {
      const answer = index === 0 ? first : await pending;
      if (answer.kind === "client-gone") return;
      const text = answer.kind === "elements" ? answer.text : errorEnvelopes(chunks[index]!, answer.outcome.body);
      if (text === "") continue;
      yield `${opened ? "," : "["}${text}`;
      opened = true;
    }
    // A batch of notifications only has no answer at all (JSON-RPC 2.0: never an empty array).
    if (opened) yield "]";
  }
  return { kind: "stream", contentType: first.contentType, body: Readable.from(joined()) };
}

/** A chunk's answer as the text between its array's brackets, or why there is none. */
async function readChunk(outcome: JsonRpcForwardOutcome, calls: ForwardedJsonRpcCall[]): Promise<ChunkAnswer> {
  if (outcome.kind !== "stream") return outcome.kind === "json" ? { kind: "failed", outcome } : outcome;
  const raw = (await text(outcome.body)).trim();
  if (raw === "") return { kind: "elements", contentType: outcome.contentType, text: "" };
  if (raw.startsWith("[") && raw.endsWith("]"))
    return { kind: "elements", contentType: outcome.contentType, text: raw.slice(1, -1).trim() };
  // One object for the whole chunk: the node refused the batch itself (e.g. over its own limit).
  let refusal: unknown;
  try {
    refusal = JSON.parse(raw);
  } catch {
    refusal = undefined;
  }
  return { kind: "elements", contentType: outcome.contentType, text: errorEnvelopes(calls, refusal) };
}

/** One error envelope per call with an id, carrying the error of `answer` (a refusal body), or -32603. */
function errorEnvelopes(calls: ForwardedJsonRpcCall[], answer: unknown): string {
  const error =
    typeof answer === "object" && answer !== null && "error" in answer && typeof answer.error === "object" && answer.error !== null
      ? answer.error
      : { code: JSONRPC_NODE_UNREACHABLE, message: "The node did not answer this part of the batch." };
  return calls
    .filter((call) => call.id !== undefined)
    .map((call) => JSON.stringify({ jsonrpc: call.jsonrpc, id: call.id, error }))
    .join(",");
}
