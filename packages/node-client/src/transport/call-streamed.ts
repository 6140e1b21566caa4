/** NodeClient.callStreamed: a JSON-RPC call whose `result` is handed over as a stream. */
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import type { CallOptions } from "../node-client.ts";
import { NodeAnswerError, NodeCallAbortedError } from "../node-errors.ts";
import { streamJsonRpcResult } from "../stream-jsonrpc-result.ts";
import { exchangeStreamed } from "./exchange-streamed.ts";
import { PREVIEW_CHARS, type NodeClientContext } from "./node-client-context.ts";
import { rpcErrorIn, rpcRefusal } from "./rpc-refusal.ts";

/** A refusal envelope is small: more than this is read as far as this. */
const MAX_REFUSAL_CHARS = 64 * 1024;

/** The bytes of the call's `result`, cut out of the node's envelope as it streams; a refusal throws as `call` does. */
export async function callStreamed(
  context: NodeClientContext,
  method: string,
  params: readonly unknown[],
  callOptions: CallOptions,
): Promise<Readable> {
  const { chain } = context;
  const body = chain.envelope.encode(method, params, ++context.nextId);
  const answer = await exchangeStreamed(context, chain.jsonRpcPath, "POST", body, callOptions.signal);
  const badAnswer = (what: string, cause?: unknown) => new NodeAnswerError(chain, `${method}: ${what}`, { cause });
  if (answer.status !== 200) {
    // A JSON-RPC 1.0 refusal (HTTP 400/404/500): small, read it whole.
    const raw = (await text(answer.body)).slice(0, MAX_REFUSAL_CHARS);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (cause) {
      throw badAnswer(`HTTP ${answer.status} with a non-JSON body (${raw.slice(0, PREVIEW_CHARS)})`, cause);
    }
    throw rpcErrorIn(chain, parsed, method) ?? badAnswer(`HTTP ${answer.status} without an error object`);
  }
  try {
    return await streamJsonRpcResult(answer.body, { refusal: (error) => rpcRefusal(chain, error, method), badAnswer });
  } catch (error) {
    if (callOptions.signal?.aborted) throw new NodeCallAbortedError(chain, { cause: error });
    throw error;
  }
}
