/** One JSON-RPC call to one URL. */
import type { BufferedCallOptions } from "../node-client.ts";
import { exchangeJson } from "./exchange-json.ts";
import { isRecord } from "./is-record.ts";
import type { Attempt, Exchange, NodeClientContext } from "./node-client-context.ts";
import { rpcErrorIn } from "./rpc-refusal.ts";
import type { Upstream } from "./upstream.ts";

/** The call's `result`, or why the URL is to be skipped; the node's refusal throws NodeRpcError. */
export async function callAttempt<T>(
  context: NodeClientContext,
  upstream: Upstream,
  method: string,
  params: readonly unknown[],
  callOptions: BufferedCallOptions,
): Promise<Attempt<T>> {
  const { chain } = context;
  const body = chain.envelope.encode(method, params, ++context.nextId);
  const exchange: Exchange = { path: chain.jsonRpcPath, method: "POST", body, streamed: false, signal: callOptions.signal };
  const answer = await exchangeJson(context, upstream, exchange, callOptions.lossless === true);
  if (answer.kind !== "ok") return answer;
  const { status, value } = answer.value;
  if (!isRecord(value)) return { kind: "down", reason: `HTTP ${status} with an unexpected JSON body` };
  // JSON-RPC 1.0 (bitcoind ≤ 27): error object with HTTP 500/404/400. JSON-RPC 2.0: HTTP 200, error without result.
  const error = rpcErrorIn(chain, value, method);
  if (error) throw error;
  if (status !== 200 || !Object.hasOwn(value, "result")) return { kind: "down", reason: `HTTP ${status} without a JSON-RPC result` };
  return { kind: "ok", value: value.result as T };
}
