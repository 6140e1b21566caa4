/**
 * A public JSON-RPC proxy's exchange, framework-free, for every chain's `POST …/jsonrpc`: the
 * policy decides before the node is contacted; what passes is sent to the node and answered as
 * exchange-jsonrpc.ts says (the node's 200 passed on unread, its refusals and failures in the
 * JSON-RPC shape).
 *
 * A batch larger than the node's own limit (`nodeBatchCalls`) is sent in chunks of that size and
 * answered as one array streamed in request order, with memory bounded whatever the answers
 * weigh (forward-batch-in-chunks.ts).
 */
import type { NodeClient } from "@chaingate/node-client";
import { exchangeJsonRpc, JSONRPC_CONTENT_TYPE, type JsonRpcExchangeOptions, type JsonRpcForwardOutcome } from "./exchange-jsonrpc.ts";
import { forwardBatchInChunks } from "./forward-batch-in-chunks.ts";
import type { JsonRpcProxyPolicy, JsonValue } from "./jsonrpc-proxy-policy.ts";

export interface ForwardJsonRpcOptions extends JsonRpcExchangeOptions {
  /** Calls per request to the node (its own batch limit); a larger batch is sent in chunks. Unset: no limit. */
  nodeBatchCalls?: number | undefined;
}

export async function forwardJsonRpc(
  node: NodeClient,
  policy: JsonRpcProxyPolicy,
  rawBody: Uint8Array | string,
  options: ForwardJsonRpcOptions,
): Promise<JsonRpcForwardOutcome> {
  const decision = policy.evaluate(rawBody);
  if (!decision.ok) return { kind: "json", contentType: JSONRPC_CONTENT_TYPE, status: decision.status, body: decision.body };
  const nodeBatchCalls = options.nodeBatchCalls ?? Number.POSITIVE_INFINITY;
  if (decision.isBatch && decision.forward.length > nodeBatchCalls)
    return forwardBatchInChunks(node, decision.forward, nodeBatchCalls, options);
  const id: JsonValue = decision.isBatch ? null : (decision.forward[0]?.id ?? null);
  return exchangeJsonRpc(node, decision.forwardBody, id, options);
}
