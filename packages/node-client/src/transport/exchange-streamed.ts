/** A streamed exchange with failover: the node's answer handed over unread (callRaw, requestRaw, callStreamed). */
import type { Dispatcher } from "undici";
import type { RawNodeResponse } from "../node-client.ts";
import { PREVIEW_CHARS, type NodeClientContext } from "./node-client-context.ts";
import { AUTH_STATUSES, sendExchange } from "./send-exchange.ts";
import { withFailover } from "./with-failover.ts";

/** The first URL whose answer has one of the chain's answer statuses and a JSON content type, its body unread. */
export async function exchangeStreamed(
  context: NodeClientContext,
  path: string,
  method: "GET" | "POST",
  body: string | undefined,
  signal: AbortSignal | undefined,
): Promise<RawNodeResponse> {
  return withFailover<RawNodeResponse>(context, signal, async (upstream) => {
    const response = await sendExchange(context, upstream, { path, method, body, streamed: true, signal });
    if (AUTH_STATUSES.has(response.statusCode)) {
      await response.body.dump();
      return { kind: "auth", status: response.statusCode };
    }
    const contentType = headerValue(response.headers["content-type"]);
    if (!context.chain.answerStatuses.has(response.statusCode) || !contentType.startsWith("application/json")) {
      const preview = await readPreview(response.body);
      return { kind: "down", reason: `HTTP ${response.statusCode} ${contentType || "without content type"} (${preview || "empty"})` };
    }
    return { kind: "ok", value: { status: response.statusCode, contentType, body: response.body, url: upstream.displayUrl } };
  });
}

function headerValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.toLowerCase() ?? "";
}

async function readPreview(body: Dispatcher.ResponseData["body"]): Promise<string> {
  try {
    return (await body.text()).slice(0, PREVIEW_CHARS).trim();
  } catch {
    return "";
  }
}
