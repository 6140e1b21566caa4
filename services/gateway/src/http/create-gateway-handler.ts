/**
 * The gateway's request handler. Paths owned by an internal service take the hot path: read the
 * credential, authenticate (cached), count usage, stream to the owner. Everything else (docs,
 * OpenAPI, health, 404/405) goes to the express app.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { acceptedRequestId, ACCOUNT_ID_HEADER, INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { AccessLog } from "../infra/access-log.ts";
import { resolveRoute, type RouteResolver, type RouteTarget } from "../domain/route-table.ts";
import { newTraceparent, traceIdOf } from "../domain/trace-ids.ts";
import type { GatewayMetrics } from "../infra/gateway-metrics.ts";
import { forwardableHeaders, type UpstreamProxy } from "../infra/upstream-proxy.ts";
import type { AuthenticateRequest } from "./authenticate-request.ts";
import { sendJson } from "../infra/send-json.ts";

/**
 * Client-sent copies of these never reach a service: credentials, and what the gateway sets
 * itself (the account, its proof, the request id, the trace, the forwarding chain; undici sets
 * the length of the body it sends).
 */
const REPLACED_HEADERS = new Set([
  ACCOUNT_ID_HEADER,
  INTERNAL_TOKEN_HEADER,
  "x-api-key",
  "authorization",
  REQUEST_ID_HEADER,
  "traceparent",
  "tracestate",
  "x-forwarded-for",
  "content-length",
]);

export interface GatewayHandlerOptions {
  /** Credential, key, rate limit and usage (authenticate-request.ts). */
  authenticate: AuthenticateRequest;
  proxy: UpstreamProxy;
  /** Serves every path no internal service owns. */
  fallback: RequestListener;
  logger: Logger;
  /** Writes one line per proxied request; undefined turns the access log off. */
  accessLog?: AccessLog;
  metrics?: GatewayMetrics;
  /** Sent to every internal service as proof that the request passed the gateway. */
  internalToken?: string;
  /** Which service owns a path; default the built-in chains' table (configured EVM chains: createRouteResolver). */
  resolveRoute?: RouteResolver;
}

/**
 * The headers of the call to the service (a flat name/value list, as undici takes it): the client's
 * end-to-end headers, then the gateway's own. The proxied hot path creates no spans (see
 * docs/design/gateway.md, Telemetry); it forwards the client's W3C `traceparent` (with its
 * `tracestate`), or a new one when there is none, so its log line and the service's spans share
 * one trace id.
 */
function serviceCallHeaders(req: IncomingMessage, accountId: number, requestId: string, internalToken: string | undefined) {
  const incoming = req.headers;
  const headers = forwardableHeaders(incoming, REPLACED_HEADERS);
  headers.push(ACCOUNT_ID_HEADER, String(accountId), REQUEST_ID_HEADER, requestId);
  if (internalToken) headers.push(INTERNAL_TOKEN_HEADER, internalToken);
  let traceId = traceIdOf(incoming.traceparent);
  if (traceId) {
    headers.push("traceparent", incoming.traceparent as string);
    if (incoming.tracestate) headers.push("tracestate", incoming.tracestate as string);
  } else {
    const fresh = newTraceparent();
    traceId = fresh.traceId;
    headers.push("traceparent", fresh.traceparent);
  }
  const sent = incoming["x-forwarded-for"];
  const forwardedFor = typeof sent === "string" ? sent : sent?.join(", ");
  const remote = req.socket.remoteAddress;
  const chain = remote ? (forwardedFor ? `${forwardedFor}, ${remote}` : remote) : forwardedFor;
  if (chain) headers.push("x-forwarded-for", chain);
  return { headers, traceId };
}

export function createGatewayHandler(options: GatewayHandlerOptions): RequestListener {
  const { authenticate, proxy, logger, accessLog, metrics } = options;

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    route: RouteTarget,
    path: string,
    started: number,
    requestId: string,
    answerHeaders: readonly string[],
  ): Promise<void> {
    // Filled in as the request goes; read by the access-log line at the end.
    const logged: { accountId?: number; traceId?: string } = {};
    if (metrics || accessLog) {
      res.once("finish", () => {
        const milliseconds = performance.now() - started;
        metrics?.recordRequest(route.group, res.statusCode, milliseconds / 1e3);
        accessLog?.({
          traceId: logged.traceId,
          requestId,
          method: req.method,
          path,
          status: res.statusCode,
          upstream: route.upstream,
          accountId: logged.accountId,
          durationMs: milliseconds,
        });
      });
    }
    const outcome = await authenticate(req.headers, route.group);
    if ("refusal" in outcome) {
      const { status, message, retryAfterSeconds } = outcome.refusal;
      if (retryAfterSeconds !== undefined) res.setHeader("retry-after", String(retryAfterSeconds));
      return sendJson(res, status, { message }, answerHeaders);
    }
    const { key } = outcome;
    logged.accountId = key.accountId;

    const { headers, traceId } = serviceCallHeaders(req, key.accountId, requestId, options.internalToken);
    logged.traceId = traceId;
    await proxy.forward(route.upstream, key.accountId, req, res, headers, route.bodyLimitBytes, answerHeaders);
  }

  return (req, res) => {
    const started = performance.now();
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    const route = (options.resolveRoute ?? resolveRoute)(path);
    if (!route) return options.fallback(req, res);
    const requestId = acceptedRequestId(req.headers[REQUEST_ID_HEADER]) ?? randomUUID();
    // Added to whichever answer the request gets, by writeHead: no per-request header object.
    const answerHeaders = [REQUEST_ID_HEADER, requestId];
    handleApi(req, res, route, path, started, requestId, answerHeaders).catch((error: unknown) => {
      logger.error({ err: error, path: url }, "gateway request failed");
      if (!res.headersSent) sendJson(res, 500, { message: "Internal server error" }, answerHeaders);
      else res.destroy();
    });
  };
}
