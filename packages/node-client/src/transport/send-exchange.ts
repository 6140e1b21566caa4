/** One HTTP request to one URL, with its credentials and deadlines. */
import { request, type Dispatcher } from "undici";
import { NodeNotConfiguredError } from "../node-errors.ts";
import type { Exchange, NodeClientContext } from "./node-client-context.ts";
import { targetUrl, type Upstream } from "./upstream.ts";

/** The statuses of refused credentials. */
export const AUTH_STATUSES = new Set([401, 403]);

/** Sends `exchange` to the URL; refreshable credentials the node refuses are refreshed once and sent again. */
export async function sendExchange(
  context: NodeClientContext,
  upstream: Upstream,
  exchange: Exchange,
  refresh = false,
): Promise<Dispatcher.ResponseData> {
  const { chain, timeoutMs } = context;
  if (!upstream.authorize) throw new NodeNotConfiguredError(chain, `no credentials for ${upstream.displayUrl}`);
  const headers: Record<string, string> = { ...(await upstream.authorize(refresh)) };
  if (exchange.body !== undefined) headers["content-type"] = "application/json";
  // Buffered calls get one deadline for the whole exchange; streamed ones only until headers.
  const deadline = exchange.streamed ? undefined : AbortSignal.timeout(timeoutMs);
  const signal = exchange.signal && deadline ? AbortSignal.any([exchange.signal, deadline]) : (exchange.signal ?? deadline ?? null);
  const response = await request(targetUrl(upstream.url, exchange.path), {
    method: exchange.method,
    headers,
    body: exchange.body,
    dispatcher: context.dispatcher,
    headersTimeout: timeoutMs,
    bodyTimeout: exchange.streamed ? context.streamIdleTimeoutMs : timeoutMs,
    signal,
  });
  if (AUTH_STATUSES.has(response.statusCode) && upstream.refreshable && !refresh) {
    await response.body.dump();
    return sendExchange(context, upstream, exchange, true);
  }
  return response;
}
