/**
 * Streams a request to an internal service and its answer back, never holding a whole body: a
 * megabytes-large Bitcoin block passes through in chunks. A service that is down, unconfigured
 * or silent past the timeouts yields 503 `{message}`, never a hang.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Pool } from "undici";
import { createBodyBudget } from "../domain/body-budget.ts";
import type { UpstreamName } from "../domain/route-table.ts";
import { sendJson } from "./send-json.ts";
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
  /** Largest request body forwarded on any route (read whole first); larger ones are answered 413. */
  maxRequestBodyBytes: number;
  /** Request-body bytes held at once, over all requests; past it a request is answered 503 before its body is read. */
  maxBufferedBodyBytes: number;
}

export interface UpstreamProxy {
  /** `bodyLimitBytes`: the route's own body limit (route-table.ts), capped by `maxRequestBodyBytes`. */
  forward(
    upstream: UpstreamName,
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string | string[]>,
    bodyLimitBytes: number,
  ): Promise<void>;
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

  const budget = createBodyBudget(options.maxBufferedBodyBytes);

  return {
    async forward(upstream, req, res, headers, bodyLimitBytes) {
      const pool = pools.get(upstream);
      if (!pool) {
        sendJson(res, 503, { message: `The ${upstream} service is not configured on this gateway.` });
        return;
      }
      const chunked = req.headers["transfer-encoding"] !== undefined;
      const declared = Number(req.headers["content-length"] ?? 0);
      if (!chunked && declared === 0) return send(pool, upstream, req, res, headers, null);
      const limit = Math.min(bodyLimitBytes, options.maxRequestBodyBytes);
      if (declared > limit) return refuseUnreadBody(res, 413, { message: tooLargeMessage(limit) });
      // A chunked body may grow to the limit: it holds that much of the budget.
      const reserved = chunked ? limit : declared;
      if (!budget.tryReserve(reserved)) {
        res.setHeader("retry-after", "1");
        return refuseUnreadBody(res, 503, { message: BUSY_MESSAGE });
      }
      try {
        // Request bodies are read whole (bounded) before they are forwarded. Streamed, a body the
        // service answers before reading (a 404 for an unknown id) kept flowing into the keep-alive
        // connection after undici had taken the exchange as done, and the next request on it was read
        // as the rest of that body: it hung until the headers timeout (found by the malformed-input drill).
        const body = await readBody(req, limit);
        if (body === "too large") return refuseUnreadBody(res, 413, { message: tooLargeMessage(limit) });
        if (body === "aborted") return;
        headers["content-length"] = String(body.length);
        delete headers["transfer-encoding"];
        await send(pool, upstream, req, res, headers, body);
      } finally {
        budget.release(reserved);
      }
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
    },
  };

  async function send(
    pool: Pool,
    upstream: UpstreamName,
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string | string[]>,
    body: Buffer | null,
  ): Promise<void> {
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
          // undici made this object for this answer alone: trimmed in place, not copied.
          for (const name in answerHeaders) if (HOP_BY_HOP.has(name)) delete answerHeaders[name];
          res.writeHead(statusCode, answerHeaders as Record<string, string | string[]>);
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
  }
}

const BUSY_MESSAGE = "The gateway is holding too many request bodies at once; try again later.";
const tooLargeMessage = (limit: number) => `The request body is larger than ${limit} bytes.`;

/** How long a refused request's client may go on sending before its connection is dropped. */
const LINGER_MS = 5_000;

/**
 * Answers a request whose body was not (wholly) read, and closes the connection after the answer:
 * the unread rest can then never be taken for the next request on it, and need not be drained.
 * The close lingers (as nginx's lingering_close): node would destroy the socket right after the
 * answer, and bytes the client was still sending would then draw a reset that wipes the unread
 * answer from the client's buffer ("fetch failed" instead of the 413, seen in the malformed-input
 * drill). So the gateway half-closes, drops what still arrives, and destroys the socket once the
 * client closes its side or after LINGER_MS.
 */
function refuseUnreadBody(res: ServerResponse, status: number, body: unknown): void {
  const socket = res.socket;
  if (socket) socket.destroySoon = () => lingerThenClose(socket);
  res.setHeader("connection", "close");
  sendJson(res, status, body);
}

function lingerThenClose(socket: Socket): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once("close", () => clearTimeout(timer));
  // The HTTP parser still reads the socket; the unread request body is dumped as it arrives.
  socket.once("end", () => socket.destroy());
}

/**
 * The whole request body; "too large" as soon as it passes `limit` (having held at most `limit`
 * bytes; the rest is left unread); "aborted" when the client left.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too large" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | "too large" | "aborted") => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish("too large");
      chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onGone = () => finish("aborted");
    req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
  });
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
