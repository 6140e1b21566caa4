/** One buffered exchange with one URL: the node's JSON answer parsed. */
import { parseLosslessJson } from "../lossless-json.ts";
import { PREVIEW_CHARS, type Attempt, type Exchange, type NodeClientContext } from "./node-client-context.ts";
import { AUTH_STATUSES, sendExchange } from "./send-exchange.ts";
import type { Upstream } from "./upstream.ts";

/** One buffered exchange: the node's JSON answer parsed, or why the URL is to be skipped. */
export async function exchangeJson(
  context: NodeClientContext,
  upstream: Upstream,
  exchange: Exchange,
  lossless: boolean,
): Promise<Attempt<{ status: number; value: unknown }>> {
  const response = await sendExchange(context, upstream, exchange);
  if (AUTH_STATUSES.has(response.statusCode)) {
    await response.body.dump();
    return { kind: "auth", status: response.statusCode };
  }
  const body = await response.body.text();
  let value: unknown;
  try {
    value = lossless ? parseLosslessJson(body) : JSON.parse(body);
  } catch {
    return {
      kind: "down",
      reason: `HTTP ${response.statusCode} with a non-JSON body (${body.slice(0, PREVIEW_CHARS).trim() || "empty"})`,
    };
  }
  return { kind: "ok", value: { status: response.statusCode, value } };
}
