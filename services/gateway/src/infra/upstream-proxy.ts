/**
 * Streams a request to an internal service and its answer back, never holding a whole body: a
 * megabytes-large Bitcoin block passes through in chunks. A service that is down, unconfigured
 * or silent past the timeouts yields 503 `{message}`, never a hang.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Pool } from "undici";
import type { UpstreamName } from "../domain/route-table.ts";
import { sendJson } from "../http/send-json.ts";
import type { BufferGarbageBound } from "@chaingate/http";

export interface UpstreamProxyOptions {
  /** Base URL per internal service; an absent one answers 503 "not configured". */
  upstreams: Partial<Record<UpstreamName, string>>;
  connectionsPerUpstream: number;
  connectTimeoutMs: number;
  /** Longest wait for the service's response headers (a node call may be slow). */
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs: number;
  onUpstreamError?(upstream: UpstreamName, error: unknown): void;
  /** Bounds dead read buffers of large bodies (see @chaingate/http's bound-buffer-garbage.ts). */
  garbageBound?: BufferGarbageBound;
  /** Largest request body forwarded (read whole first); larger ones are answered 413. */
  maxRequestBodyBytes: number;
}

export interface UpstreamProxy {
  forward(upstream: UpstreamName, req: IncomingMessage, res: ServerResponse, headers: Record<string, string | string[]>): Promise<void>;
  close(): Promise<void>;
}

/** Connection-scoped headers (RFC 9110 §7.6.1) and ones undici refuses to forward. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect",
  "host",
]);

export function createUpstreamProxy(options: UpstreamProxyOptions): UpstreamProxy {
  const pools = new Map<UpstreamName, Pool>();
  for (const [name, url] of Object.entries(options.upstreams) as [UpstreamName, string | undefined][]) {
    if (!url) continue;
    pools.set(
      name,
      new Pool(new URL(url).origin, {
        connections: options.connectionsPerUpstream,
        connect: { timeout: options.connectTimeoutMs },
        headersTimeout: options.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs,
      }),
    );
  }

  return {
    async forward(upstream, req, res, headers) {
      const pool = pools.get(upstream);
      if (!pool) {
        sendJson(res, 503, { message: `The ${upstream} service is not configured on this gateway.` });
        return;
      }
      const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
      // Request bodies are read whole (bounded) before they are forwarded. Streamed, a body the
      // service answers before reading (a 404 for an unknown id) kept flowing into the keep-alive
      // connection after undici had taken the exchange as done, and the next request on it was read
      // as the rest of that body: it hung until the headers timeout (found by the malformed-input drill).
      let body: Buffer | null = null;
      if (hasBody) {
        const read = await readBody(req, options.maxRequestBodyBytes);
        if (read === "too large") {
          sendJson(res, 413, { message: `The request body is larger than ${options.maxRequestBodyBytes} bytes.` });
          return;
        }
        if (read === "aborted") return;
        body = read;
        headers["content-length"] = String(body.length);
        delete headers["transfer-encoding"];
      }
      // A client that leaves before the service answered cancels the call (and the node call the
      // service started for it); after the headers, undici aborts on `res` closing by itself.
      // undici takes any EventEmitter as the signal: `res` itself, told "abort", costs no per-request
      // AbortController on this path.
      let cancelled = false;
      const onClientGone = () => {
        if (res.headersSent) return;
        cancelled = true;
        res.emit("abort");
      };
      res.once("close", onClientGone);
      try {
        // stream() writes each chunk straight into the client's response and pauses the upstream
        // socket while that response is full: no intermediate stream holds chunks.
        await pool.stream(
          { path: req.url ?? "/", method: req.method as "GET", headers, body, signal: res },
          ({ statusCode, headers: answerHeaders }) => {
            res.writeHead(statusCode, forwardableHeaders(answerHeaders, NOTHING_MORE));
            options.garbageBound?.watch(res, answerHeaders["content-length"]);
            return res;
          },
        );
      } catch (error) {
        if (res.destroyed || cancelled) return;
        options.onUpstreamError?.(upstream, error);
        if (!res.headersSent) {
          res.setHeader("retry-after", "1");
          sendJson(res, 503, { message: `The ${upstream} service is unavailable; try again later.` });
        } else {
          // The service broke off mid-body: the response cannot be mended.
          res.destroy();
        }
      } finally {
        res.off("close", onClientGone);
      }
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
    },
  };
}

const NOTHING_MORE: ReadonlySet<string> = new Set();

/**
 * The whole request body; "too large" past `limit` (the rest is read and dropped, so the client can
 * finish sending and read the 413; node's requestTimeout bounds how long); "aborted" when the
 * client left.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too large" | "aborted"> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    }
  } catch {
    return "aborted";
  }
  if (size > limit) return "too large";
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** Headers for the next hop, either way: no hop-by-hop headers, nor the names in `strip`. */
export function forwardableHeaders(incoming: IncomingHttpHeaders, strip: ReadonlySet<string>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name) || strip.has(name)) continue;
    headers[name] = value;
  }
  return headers;
}
