/** One plain HTTP JSON request to one URL. */
import { NodeRpcError } from "../node-errors.ts";
import type { RequestOptions } from "../node-client.ts";
import { exchangeJson } from "./exchange-json.ts";
import type { Attempt, Exchange, NodeClientContext } from "./node-client-context.ts";
import type { Upstream } from "./upstream.ts";

/** The parsed answer, or why the URL is to be skipped; an error member of the chain throws NodeRpcError. */
export async function requestAttempt<T>(
  context: NodeClientContext,
  upstream: Upstream,
  path: string,
  requestOptions: RequestOptions,
): Promise<Attempt<T>> {
  const { chain } = context;
  const body = requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body);
  const exchange: Exchange = {
    path,
    method: requestOptions.method ?? (body === undefined ? "GET" : "POST"),
    body,
    streamed: false,
    signal: requestOptions.signal,
  };
  const answer = await exchangeJson(context, upstream, exchange, requestOptions.lossless === true);
  if (answer.kind !== "ok") return answer;
  const { status, value } = answer.value;
  if (!chain.answerStatuses.has(status)) return { kind: "down", reason: `HTTP ${status}` };
  const error = chain.restErrorIn?.(value);
  if (error) throw new NodeRpcError(chain, path, error.code, error.message, chain.reasonFor(error.code, error.message));
  return { kind: "ok", value: value as T };
}
