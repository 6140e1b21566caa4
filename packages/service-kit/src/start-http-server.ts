/**
 * Starts an HTTP server and stops it gracefully: no new connections, in-flight requests finish,
 * idle keep-alive connections close; whatever is still open after the drain timeout is cut.
 */
import type * as NodeHttp from "node:http";
import type { RequestListener, Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Logger } from "@chaingate/logger";

/**
 * node:http through require(), not an ESM import: a process whose first load of node:http is an
 * ESM import (this module is among the first a service loads) gets its outgoing requests wrapped
 * twice by the OpenTelemetry http instrumentation (two nested client spans per request, seen in
 * the transfer-trace drill); loaded through require() first, once.
 */
const http = createRequire(import.meta.url)("node:http") as typeof NodeHttp;

export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
/** Longer than common load balancers' idle timeout, so they close first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const IDLE_SWEEP_INTERVAL_MS = 100;

export interface StartHttpServerOptions {
  host: string;
  port: number;
  logger: Logger;
  drainTimeoutMs?: number;
  /** Also serve the app's `/metrics` on a listener of its own (METRICS_HOST/METRICS_PORT): Kubernetes scrapes one port on every pod. */
  metrics?: { host: string; port: number } | undefined;
}

/** The listening options of a service from the shared settings (`serviceSettings`). */
export function listenOptions(
  config: { HOST: string; PORT: number; DRAIN_TIMEOUT_MS: number; METRICS_HOST?: string; METRICS_PORT?: number | undefined },
  logger: Logger,
): StartHttpServerOptions {
  return {
    host: config.HOST,
    port: config.PORT,
    logger,
    drainTimeoutMs: config.DRAIN_TIMEOUT_MS,
    metrics: config.METRICS_PORT === undefined ? undefined : { host: config.METRICS_HOST ?? config.HOST, port: config.METRICS_PORT },
  };
}

export interface RunningHttpServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(handler: RequestListener, options: StartHttpServerOptions): Promise<RunningHttpServer> {
  const server = http.createServer(handler);
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
      // Connections that finish their last response become idle; sweep them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_INTERVAL_MS);
      const deadline = setTimeout(() => {
        options.logger.warn({ drainTimeoutMs }, "drain timeout: closing remaining connections");
        server.closeAllConnections();
      }, drainTimeoutMs);
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    }));

  return { server, url, port, close };
}

/**
 * Requests node:http cannot parse (headers over its 16 KB limit, a malformed request line) never
 * reach the app: answer them in the API's `{message}` shape instead of node's empty body.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "The request headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request took too long to arrive."]
        : [400, "Bad Request", "The request could not be parsed as HTTP."];
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
