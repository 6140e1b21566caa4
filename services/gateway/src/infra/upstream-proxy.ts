/**
 * Streams a request to an internal service and its answer back, never holding a whole answer: a
 * megabytes-large Bitcoin block passes through in chunks (proxied-answer.ts). A service that is
 * down, unconfigured or silent past the timeouts yields 503 `{message}`, never a hang. Request
 * bodies are read whole first, within the body budget (each account its share) and a receive
 * deadline, so a client that sends slowly or not at all holds its reservation for a bounded time.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Pool } from "undici";
import type { BufferGarbageBound } from "@chaingate/http";
import { createBodyBudget } from "../domain/body-budget.ts";
import type { UpstreamName } from "../domain/route-table.ts";
import { HOP_BY_HOP, ProxiedAnswer } from "./proxied-answer.ts";
import { sendJson } from "./send-json.ts";

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
  /** The part of `maxBufferedBodyBytes` one account may hold; past it its request is answered 503 before its body is read. */
  maxBufferedBodyBytesPerAccount: number;
  /** A body not wholly received this long after its reading began is answered 408 and its reservation freed. */
  bodyReceiveTimeoutMs: number;
}

export interface UpstreamProxy {
  /**
   * `accountId`: the caller's account, whose share of the body budget the body takes.
   * `bodyLimitBytes`: the route's own body limit (route-table.ts), capped by `maxRequestBodyBytes`.
   * `answerHeaders`: flat name/value pairs added to every answer, the service's or the gateway's own.
   * Returns a promise only while it holds a request body (settled once the exchange is over).
   */
  forward(
    upstream: UpstreamName,
    accountId: number,
    req: IncomingMessage,
    res: ServerResponse,
    headers: string[],
    bodyLimitBytes: number,
    answerHeaders: readonly string[],
  ): void | Promise<void>;
  close(): Promise<void>;
}

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

  const budget = createBodyBudget(options.maxBufferedBodyBytes, options.maxBufferedBodyBytesPerAccount);
  const accountBusyMessage = `This account is holding too many request bodies at once (its share of the gateway's buffer is ${options.maxBufferedBodyBytesPerAccount} bytes); try again later.`;
  const receiveTimeoutMessage = `The request body was not received within ${options.bodyReceiveTimeoutMs} ms.`;

  return {
    forward(upstream, accountId, req, res, headers, bodyLimitBytes, answerHeaders) {
      const pool = pools.get(upstream);
      if (!pool) return sendJson(res, 503, { message: `The ${upstream} service is not configured on this gateway.` }, answerHeaders);
      const chunked = req.headers["transfer-encoding"] !== undefined;
      const declared = Number(req.headers["content-length"] ?? 0);
      if (!chunked && declared === 0) return send(pool, upstream, req, res, headers, null, answerHeaders);
      const limit = Math.min(bodyLimitBytes, options.maxRequestBodyBytes);
      if (declared > limit) return refuseUnreadBody(res, 413, { message: tooLargeMessage(limit) }, answerHeaders);
      // A chunked body may grow to the limit: it holds that much of the budget.
      const reserved = chunked ? limit : declared;
      const reservation = budget.tryReserve(accountId, reserved);
      if (reservation !== "reserved") {
        res.setHeader("retry-after", "1");
        const message = reservation === "account share full" ? accountBusyMessage : BUSY_MESSAGE;
        return refuseUnreadBody(res, 503, { message }, answerHeaders);
      }
      return forwardWithBody(pool, upstream, req, res, headers, limit, answerHeaders).finally(() => budget.release(accountId, reserved));
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
    },
  };

  async function forwardWithBody(
    pool: Pool,
    upstream: UpstreamName,
    req: IncomingMessage,
    res: ServerResponse,
    headers: string[],
    limit: number,
    answerHeaders: readonly string[],
  ): Promise<void> {
    // Request bodies are read whole (bounded) before they are forwarded. Streamed, a body the
    // service answers before reading (a 404 for an unknown id) kept flowing into the keep-alive
    // connection after undici had taken the exchange as done, and the next request on it was read
    // as the rest of that body: it hung until the headers timeout (found by the malformed-input drill).
    const body = await readBody(req, limit, options.bodyReceiveTimeoutMs);
    if (body === "too large") return refuseUnreadBody(res, 413, { message: tooLargeMessage(limit) }, answerHeaders);
    if (body === "timed out") return refuseUnreadBody(res, 408, { message: receiveTimeoutMessage }, answerHeaders);
    if (body === "aborted") return;
    // undici sends the body's Content-Length (`headers` carries none: the body is no longer chunked).
    await new Promise<void>((settled) => send(pool, upstream, req, res, headers, body, answerHeaders, settled));
  }

  function send(
    pool: Pool,
    upstream: UpstreamName,
    req: IncomingMessage,
    res: ServerResponse,
    headers: string[],
    body: Buffer | null,
    answerHeaders: readonly string[],
    settled?: () => void,
  ): void {
    // A client that left while its key was checked (or its body read) starts no call.
    if (res.destroyed) return settled?.();
    const answer = new ProxiedAnswer(
      res,
      answerHeaders,
      {
        failed(error, headersSent) {
          options.onUpstreamError?.(upstream, error);
          // The service broke off mid-body: the response cannot be mended.
          if (headersSent) return void res.destroy();
          res.setHeader("retry-after", "1");
          sendJson(res, 503, { message: `The ${upstream} service is unavailable; try again later.` }, answerHeaders);
        },
        settled,
      },
      options.garbageBound,
    );
    pool.dispatch({ path: req.url ?? "/", method: req.method as "GET", headers, body }, answer);
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
function refuseUnreadBody(res: ServerResponse, status: number, body: unknown, answerHeaders: readonly string[]): void {
  const socket = res.socket;
  if (socket) socket.destroySoon = () => lingerThenClose(socket);
  res.setHeader("connection", "close");
  sendJson(res, status, body, answerHeaders);
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
 * bytes; the rest is left unread); "timed out" when it is not whole within `timeoutMs`; "aborted"
 * when the client left.
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer | "too large" | "timed out" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | "too large" | "timed out" | "aborted") => {
      clearTimeout(deadline);
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      resolve(result);
    };
    const deadline = setTimeout(() => finish("timed out"), timeoutMs);
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

/**
 * The client's headers for the call to a service, as a flat name/value list: no hop-by-hop headers,
 * nor the names in `strip`.
 */
export function forwardableHeaders(incoming: IncomingHttpHeaders, strip: ReadonlySet<string>): string[] {
  const headers: string[] = [];
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name) || strip.has(name)) continue;
    if (typeof value === "string") headers.push(name, value);
    else for (const each of value) headers.push(name, each);
  }
  return headers;
}
