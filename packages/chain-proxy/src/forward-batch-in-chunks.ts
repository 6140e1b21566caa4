/**
 * A JSON-RPC batch larger than the node's own limit, sent in chunks of that size and answered as
 * one array streamed to the client: `[`, each chunk's envelopes in request order (within a chunk,
 * as the node ordered them), `]`. The proxy's memory stays bounded whatever the answers weigh:
 * - a chunk's answer passes through as it arrives, never held whole (unwrap-batch-answer.ts);
 * - at most NODE_CHUNKS_IN_FLIGHT chunks are requested and not yet passed on at any time; the next
 *   one is requested only when the client has taken a whole chunk (the answer is pulled at the
 *   pace of the client's socket). The chunks waiting their turn are not read: they wait in their
 *   sockets, the node held back by TCP;
 * - a client that leaves cancels the node calls under way and requests no more.
 *
 * The first chunk decides the status as a single exchange would (a node that cannot be reached is
 * 502). Once the 200 is out, a chunk that fails before any of its answer was written (node
 * unreachable, a refusal, one error object for the whole chunk, a body that broke before its first
 * byte) is answered in place, one error envelope per call of it that has an id, so the array stays
 * whole. A chunk's answer that breaks off after part of it was written cannot be mended: the
 * connection is cut, as for any streamed answer.
 */
import { NodeAnswerError, NodeCallAbortedError, type NodeClient } from "@chaingate/node-client";
import { exchangeJsonRpc, JSONRPC_CONTENT_TYPE, type JsonRpcExchangeOptions, type JsonRpcForwardOutcome } from "./exchange-jsonrpc.ts";
import { JSONRPC_NODE_UNREACHABLE, jsonRpcProxyErrorBody, type ForwardedJsonRpcCall } from "./jsonrpc-proxy-policy.ts";
import { pulledReadable } from "./pulled-readable.ts";
import { unwrapBatchAnswer } from "./unwrap-batch-answer.ts";

/** Chunks of one batch requested from the node and not yet passed on to the client, at most. */
export const NODE_CHUNKS_IN_FLIGHT = 4;
/** The joined answer's own buffer: what is read from the node ahead of the client's socket. */
const BATCH_ANSWER_BUFFER_BYTES = 64 * 1024;

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");
const ignore = () => undefined;

export async function forwardBatchInChunks(
  node: NodeClient,
  calls: ForwardedJsonRpcCall[],
  nodeBatchCalls: number,
  options: JsonRpcExchangeOptions,
): Promise<JsonRpcForwardOutcome> {
  const chunks: ForwardedJsonRpcCall[][] = [];
  for (let start = 0; start < calls.length; start += nodeBatchCalls) chunks.push(calls.slice(start, start + nodeBatchCalls));
  // Fires when the client leaves, or when the batch ends early (the first chunk failed, the answer was destroyed).
  const cancelled = new AbortController();
  const signal = AbortSignal.any([options.signal, cancelled.signal]);
  /** The chunks requested and not yet passed on whole, by index: what a cancellation ends. */
  const requested = new Map<number, Promise<JsonRpcForwardOutcome>>();

  const request = (index: number) => {
    const chunk = chunks[index];
    if (chunk === undefined || signal.aborted) return;
    const pending = exchangeJsonRpc(node, JSON.stringify(chunk), null, { ...options, signal }).then(
      (outcome) => {
        // Unread until its turn: a failure meanwhile is met when it is read, not thrown as unhandled.
        if (outcome.kind === "stream") outcome.body.on("error", ignore);
        return outcome;
      },
      (error: unknown): JsonRpcForwardOutcome => ({
        kind: "json",
        contentType: JSONRPC_CONTENT_TYPE,
        status: 500,
        body: jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Internal error in the proxy.", null),
        problem: { message: "POST /jsonrpc failed unexpectedly", cause: error },
      }),
    );
    requested.set(index, pending);
  };
  const cancel = () => {
    cancelled.abort();
    for (const pending of requested.values()) void pending.then((outcome) => outcome.kind === "stream" && outcome.body.destroy());
    requested.clear();
  };

  for (let index = 0; index < Math.min(NODE_CHUNKS_IN_FLIGHT, chunks.length); index++) request(index);
  const first = await requested.get(0)!;
  if (first.kind !== "stream") {
    cancel();
    return first;
  }

  async function* joined(): AsyncGenerator<Buffer> {
    let opened = false;
    const separator = () => {
      const bytes = opened ? COMMA : OPEN;
      opened = true;
      return bytes;
    };
    for (const [index, chunk] of chunks.entries()) {
      const outcome = index === 0 ? first : await requested.get(index);
      // Only a cancelled batch has a chunk that was never requested or whose call was abandoned.
      if (outcome === undefined || outcome.kind === "client-gone") throw new NodeCallAbortedError(node.chain);
      if (outcome.kind === "json") {
        const envelopes = errorEnvelopes(chunk, outcome.body);
        if (envelopes !== "") yield* [separator(), Buffer.from(envelopes)];
      } else {
        let written = false;
        try {
          for await (const piece of unwrapBatchAnswer(outcome.body, { badAnswer: (what) => new NodeAnswerError(node.chain, what) })) {
            if (piece.kind === "not-an-array") {
              // One object for the whole chunk: the node refused the batch itself (e.g. over its own limit).
              const envelopes = errorEnvelopes(chunk, parsedOrUndefined(piece.text));
              if (envelopes !== "") yield* [separator(), Buffer.from(envelopes)];
              break;
            }
            if (!written) yield separator();
            written = true;
            yield piece.bytes;
          }
        } catch (error) {
          if (signal.aborted) throw new NodeCallAbortedError(node.chain, { cause: error });
          // Part of the chunk's answer is out: the array cannot be mended.
          if (written) throw error;
          const envelopes = errorEnvelopes(chunk, undefined);
          if (envelopes !== "") yield* [separator(), Buffer.from(envelopes)];
        }
      }
      // The client has taken this chunk whole: one more may be requested.
      requested.delete(index);
      request(index + NODE_CHUNKS_IN_FLIGHT);
    }
    // A batch of notifications only has no answer at all (JSON-RPC 2.0: never an empty array).
    if (opened) yield CLOSE;
  }

  return {
    kind: "stream",
    contentType: first.contentType,
    body: pulledReadable(joined(), { highWaterMark: BATCH_ANSWER_BUFFER_BYTES, onDestroy: cancel }),
  };
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
