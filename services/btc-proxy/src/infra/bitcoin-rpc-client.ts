/**
 * JSON-RPC over HTTP to bitcoind (or litecoind, same RPC) with failover between several node URLs.
 *
 * - `call(method, params)`: buffered, returns `result` or throws a classified error.
 * - `callRaw(body)`: streamed; returns the node's HTTP status and body as a Readable, for
 *   `getblock` verbosity 2 (megabytes) and for passing the node's own envelope through untouched.
 *
 * A URL that fails at the transport level (refused, reset, timed out, a non-JSON answer such as
 * bitcoind's 503 "work queue depth exceeded") is skipped for a cool-down and the next URL is tried.
 * Once response headers with a JSON body arrive, the answer is the node's and is never retried.
 */
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { Agent, request, type Dispatcher } from "undici";
import { BitcoinNodeAuthError, BitcoinNodeNotConfiguredError, BitcoinNodeRpcError, BitcoinNodeUnreachableError } from "./bitcoin-rpc-errors.ts";

/** Per attempt: from sending the request to the complete buffered body / to the response headers (raw). */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** Raw calls: the longest pause allowed between body chunks while streaming. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;
/** A dead host should cost one short wait, not the whole call timeout. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** How long a URL that failed is skipped before it is tried again. */
export const UNHEALTHY_COOL_DOWN_MS = 30_000;
/** Statuses that can carry a node's JSON-RPC answer: 200, and bitcoind's 1.0 error mapping (400 invalid request, 404 method not found, 500 other errors). */
const JSONRPC_STATUSES = new Set([200, 400, 404, 500]);
const AUTH_STATUSES = new Set([401, 403]);

export type BitcoinRpcAuth = { user: string; password: string } | { cookieFile: string };

export interface BitcoinRpcClientOptions {
  /** Node URLs in order of preference, e.g. `http://127.0.0.1:8332`. User info in a URL (`http://u:p@host`) overrides `auth` for that URL. */
  urls: readonly string[];
  /** rpcuser/rpcpassword, or bitcoind's `.cookie` file (re-read when the node answers 401, as it rotates on restart). */
  auth?: BitcoinRpcAuth;
  timeoutMs?: number;
  streamIdleTimeoutMs?: number;
  coolDownMs?: number;
  /** For tests: the clock used for cool-downs. */
  now?: () => number;
}

/** The node's answer to a raw call. */
export interface RawRpcResponse {
  /** The node's HTTP status: 200, or 400/404/500 for JSON-RPC 1.0 errors. */
  status: number;
  contentType: string;
  /** The node's body, streamed; the caller must consume or destroy it. */
  body: Readable;
  /** The URL (without credentials) that answered. */
  url: string;
}

export interface UpstreamState {
  url: string;
  healthy: boolean;
  /** Epoch ms until which the URL is skipped; 0 when healthy. */
  unhealthyUntil: number;
  lastError?: string;
}

export interface BitcoinRpcClient {
  /** Calls `method` and returns its `result`. Throws BitcoinNodeRpcError, BitcoinNodeUnreachableError, BitcoinNodeAuthError or BitcoinNodeNotConfiguredError. */
  call<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  /**
   * Calls `method` and returns the node's successful answer (`{"result":…}` envelope) as a stream,
   * unread: for results of megabytes (getblock verbosity 2). Throws as `call` does.
   */
  callStreamed(method: string, params?: readonly unknown[], options?: { signal?: AbortSignal }): Promise<Readable>;
  /** Sends an already-encoded JSON-RPC body (one call or a batch) and returns the node's status and streamed body. */
  callRaw(body: string, options?: { signal?: AbortSignal }): Promise<RawRpcResponse>;
  /** Health of each configured URL, credentials stripped. */
  upstreams(): UpstreamState[];
  close(): Promise<void>;
}

interface Upstream {
  /** Origin + path, no credentials. */
  url: string;
  displayUrl: string;
  auth: BitcoinRpcAuth | undefined;
  unhealthyUntil: number;
  lastError?: string;
}

type Attempt<T> = { kind: "ok"; value: T } | { kind: "down"; reason: string } | { kind: "auth"; status: number };

/** Creates a client; a missing URL or credentials is reported per call (BitcoinNodeNotConfiguredError), so the service can still start. */
export function createBitcoinRpcClient(options: BitcoinRpcClientOptions): BitcoinRpcClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const coolDownMs = options.coolDownMs ?? UNHEALTHY_COOL_DOWN_MS;
  const now = options.now ?? Date.now;
  const upstreams = options.urls.map((url) => toUpstream(url, options.auth));
  const dispatcher = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS }, keepAliveTimeout: 10_000 });
  const cookies = new Map<string, string>();
  let nextId = 0;

  async function authorization(upstream: Upstream, refresh: boolean): Promise<string> {
    const auth = upstream.auth;
    if (!auth) throw new BitcoinNodeNotConfiguredError(`no rpc credentials for ${upstream.displayUrl}`);
    if ("user" in auth) return basic(auth.user, auth.password);
    let cookie = refresh ? undefined : cookies.get(auth.cookieFile);
    if (cookie === undefined) {
      // The cookie file holds "__cookie__:<random>", written by the node at start-up.
      cookie = (await readFile(auth.cookieFile, "utf8")).trim();
      cookies.set(auth.cookieFile, cookie);
    }
    return `Basic ${Buffer.from(cookie).toString("base64")}`;
  }

  async function send(upstream: Upstream, body: string, raw: boolean, signal: AbortSignal | undefined, refreshCookie = false): Promise<Dispatcher.ResponseData> {
    const headers = { authorization: await authorization(upstream, refreshCookie), "content-type": "application/json" };
    const response = await request(upstream.url, {
      method: "POST",
      headers,
      body,
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: raw ? streamIdleTimeoutMs : timeoutMs,
      // Buffered calls get one deadline for the whole exchange; raw calls only until headers.
      signal: signal ?? (raw ? null : AbortSignal.timeout(timeoutMs)),
    });
    if (AUTH_STATUSES.has(response.statusCode) && upstream.auth && "cookieFile" in upstream.auth && !refreshCookie) {
      await response.body.dump();
      return send(upstream, body, raw, signal, true);
    }
    return response;
  }

  /** Tries healthy URLs in order (all of them, in order, when none is healthy). */
  async function withFailover<T>(attempt: (upstream: Upstream) => Promise<Attempt<T>>, signal?: AbortSignal): Promise<T> {
    if (upstreams.length === 0) throw new BitcoinNodeNotConfiguredError("no node URL");
    const healthy = upstreams.filter((upstream) => upstream.unhealthyUntil <= now());
    const order = healthy.length > 0 ? [...healthy, ...upstreams.filter((upstream) => !healthy.includes(upstream))] : upstreams;
    const failures: Array<{ url: string; reason: string }> = [];
    let authFailure: { url: string; status: number } | undefined;
    let lastCause: unknown;
    for (const upstream of order) {
      let outcome: Attempt<T>;
      try {
        outcome = await attempt(upstream);
      } catch (error) {
        // The node's own answer, a configuration gap, or our caller giving up: not the URL's fault.
        if (error instanceof BitcoinNodeRpcError || error instanceof BitcoinNodeNotConfiguredError || signal?.aborted) throw error;
        lastCause = error;
        outcome = { kind: "down", reason: describeTransportError(error) };
      }
      if (outcome.kind === "ok") {
        upstream.unhealthyUntil = 0;
        delete upstream.lastError;
        return outcome.value;
      }
      const reason = outcome.kind === "auth" ? `HTTP ${outcome.status} (credentials refused)` : outcome.reason;
      if (outcome.kind === "auth") authFailure ??= { url: upstream.displayUrl, status: outcome.status };
      upstream.unhealthyUntil = now() + coolDownMs;
      upstream.lastError = reason;
      failures.push({ url: upstream.displayUrl, reason });
    }
    if (authFailure) throw new BitcoinNodeAuthError(authFailure.url, authFailure.status);
    throw new BitcoinNodeUnreachableError(failures, { cause: lastCause });
  }

  const client: BitcoinRpcClient = {
    async call<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
      const id = ++nextId;
      const body = JSON.stringify({ jsonrpc: "1.0", id, method, params });
      return withFailover<T>(async (upstream) => {
        const response = await send(upstream, body, false, undefined);
        if (AUTH_STATUSES.has(response.statusCode)) {
          await response.body.dump();
          return { kind: "auth", status: response.statusCode };
        }
        const text = await response.body.text();
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return { kind: "down", reason: `HTTP ${response.statusCode} with a non-JSON body (${text.slice(0, 80).trim() || "empty"})` };
        }
        if (!isRecord(parsed)) return { kind: "down", reason: `HTTP ${response.statusCode} with an unexpected JSON body` };
        // JSON-RPC 1.0 (bitcoind ≤ 27): error object with HTTP 500/404/400. JSON-RPC 2.0 (28+): HTTP 200, error without result.
        const error = rpcErrorIn(parsed, method);
        if (error) throw error;
        if (response.statusCode !== 200 || !("result" in parsed)) {
          return { kind: "down", reason: `HTTP ${response.statusCode} without a JSON-RPC result` };
        }
        return { kind: "ok", value: parsed.result as T };
      });
    },

    async callStreamed(method: string, params: readonly unknown[] = [], callOptions: { signal?: AbortSignal } = {}): Promise<Readable> {
      const answer = await client.callRaw(JSON.stringify({ jsonrpc: "1.0", id: ++nextId, method, params }), callOptions);
      if (answer.status === 200) return answer.body;
      // A refusal: the node's error envelope is small, read it whole.
      const raw = await text(answer.body);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new BitcoinNodeRpcError(method, -1, raw.slice(0, 200));
      }
      throw rpcErrorIn(parsed, method) ?? new BitcoinNodeRpcError(method, -1, `HTTP ${answer.status} without an error object`);
    },

    async callRaw(body: string, callOptions: { signal?: AbortSignal } = {}): Promise<RawRpcResponse> {
      return withFailover<RawRpcResponse>(async (upstream) => {
        const response = await send(upstream, body, true, callOptions.signal);
        if (AUTH_STATUSES.has(response.statusCode)) {
          await response.body.dump();
          return { kind: "auth", status: response.statusCode };
        }
        const contentType = headerValue(response.headers["content-type"]);
        if (!JSONRPC_STATUSES.has(response.statusCode) || !contentType.startsWith("application/json")) {
          const preview = await readPreview(response.body);
          return { kind: "down", reason: `HTTP ${response.statusCode} ${contentType || "without content type"} (${preview || "empty"})` };
        }
        return { kind: "ok", value: { status: response.statusCode, contentType, body: response.body, url: upstream.displayUrl } };
      }, callOptions.signal);
    },

    upstreams() {
      return upstreams.map((upstream) => {
        const state: UpstreamState = { url: upstream.displayUrl, healthy: upstream.unhealthyUntil <= now(), unhealthyUntil: upstream.unhealthyUntil };
        if (upstream.lastError !== undefined) state.lastError = upstream.lastError;
        return state;
      });
    },

    async close() {
      await dispatcher.close();
    },
  };
  return client;
}

function toUpstream(rawUrl: string, auth: BitcoinRpcAuth | undefined): Upstream {
  const url = new URL(rawUrl);
  let upstreamAuth = auth;
  if (url.username !== "") {
    upstreamAuth = { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
    url.username = "";
    url.password = "";
  }
  const clean = url.toString();
  return { url: clean, displayUrl: clean.replace(/\/$/, ""), auth: upstreamAuth, unhealthyUntil: 0 };
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

function headerValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.toLowerCase() ?? "";
}

async function readPreview(body: Dispatcher.ResponseData["body"]): Promise<string> {
  try {
    const text = await body.text();
    return text.slice(0, 80).trim();
  } catch {
    return "";
  }
}

function describeTransportError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const nested = (error.cause as { code?: unknown } | undefined)?.code;
    const label = [typeof code === "string" ? code : undefined, typeof nested === "string" ? nested : undefined].filter(Boolean).join("/");
    return label ? `${label}: ${error.message}` : `${error.name}: ${error.message}`;
  }
  return String(error);
}

/** The node's JSON-RPC error in a parsed answer, as the error to throw; undefined when there is none. */
function rpcErrorIn(parsed: unknown, method: string): BitcoinNodeRpcError | undefined {
  const error = isRecord(parsed) ? parsed.error : undefined;
  if (!isRecord(error)) return undefined;
  const code = typeof error.code === "number" ? error.code : Number.NaN;
  const message = typeof error.message === "string" ? error.message : JSON.stringify(error);
  return new BitcoinNodeRpcError(method, code, message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
