/**
 * The transport every chain shares: HTTP to one of several node URLs with failover, a cool-down
 * for a URL that failed, per-attempt and connect timeouts, streamed answers and cancellation.
 *
 * A URL that fails at the transport level (refused, reset, timed out, a status or content type
 * the chain's nodes never answer with, e.g. bitcoind's 503 "work queue depth exceeded") is
 * skipped for a cool-down and the next URL is tried. Once an answer of the node's own arrives,
 * it is the answer and is never retried elsewhere. A call its caller cancels (AbortSignal) never
 * marks a URL down: a client that disconnects is no node failure.
 *
 * With `verifyEndpoint`, a URL is checked before it first answers and again whenever it comes back
 * from a cool-down (failover, recovery, a restarted node): a URL it refuses (a node of another
 * chain) is skipped like an unhealthy one, with the reason in `upstreams()`.
 */
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { Agent, request, type Dispatcher } from "undici";
import { JsonNumber, parseLosslessJson } from "./lossless-json.ts";
import { canRefresh, createAuthorizer, type Authorizer, type NodeAuth } from "./node-auth.ts";
import type { NodeChain } from "./node-chain.ts";
import {
  NodeAnswerError,
  NodeAuthError,
  NodeCallAbortedError,
  NodeNotConfiguredError,
  NodeRpcError,
  NodeUnreachableError,
} from "./node-errors.ts";
import { observeNodeCalls, type NodeCallObserver } from "./observe-node-calls.ts";
import { streamJsonRpcResult } from "./stream-jsonrpc-result.ts";

/** Per attempt: from sending the request to the complete buffered body / to the response headers (streamed). */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** Streamed answers: the longest pause allowed between body chunks. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;
/** A dead host should cost one short wait, not the whole call timeout. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** How long a URL that failed is skipped before it is tried again. */
export const DEFAULT_COOL_DOWN_MS = 30_000;
/** Calls per batch request a node takes by default: what common nodes and providers accept in one batch. */
export const DEFAULT_NODE_BATCH_CALLS = 100;
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
const AUTH_STATUSES = new Set([401, 403]);
/** How much of an unusable answer is quoted in the reason a URL was skipped. */
const PREVIEW_CHARS = 80;
/** A refusal envelope is small: more than this is read as far as this. */
const MAX_REFUSAL_CHARS = 64 * 1024;

export interface NodeClientOptions {
  chain: NodeChain;
  /** Node URLs in order of preference. User info in a URL (`http://u:p@host`) is that URL's basic auth. */
  urls: readonly string[];
  /** Credentials for URLs without user info; default "none" (a chain with `requiresAuth` then reports not configured). */
  auth?: NodeAuth;
  timeoutMs?: number;
  streamIdleTimeoutMs?: number;
  connectTimeoutMs?: number;
  coolDownMs?: number;
  /** For tests: the clock used for cool-downs. */
  now?: () => number;
  /** Told about every call (method, duration, outcome): metrics. */
  onCall?: NodeCallObserver;
  /**
   * Checks a URL before it first answers and after each cool-down (e.g. the node's chain identity):
   * resolves with a refusal reason to skip the URL for a cool-down like an unhealthy one, or
   * undefined to use it. A throw counts as the URL being down.
   */
  verifyEndpoint?: (endpoint: NodeEndpoint) => Promise<string | undefined>;
}

/** One URL's own calls, no failover and no verification: what `verifyEndpoint` reads the node through. */
export interface NodeEndpoint {
  /** The URL as upstreams() shows it. */
  url: string;
  call<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  request<T = unknown>(path: string, options?: Omit<RequestOptions, "signal" | "lossless">): Promise<T>;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface BufferedCallOptions extends CallOptions {
  /** Numbers as JsonNumber (their exact text) instead of doubles: amounts. */
  lossless?: boolean;
}

export interface RequestOptions extends BufferedCallOptions {
  /** Default POST when there is a body, GET otherwise. */
  method?: "GET" | "POST";
  /** Sent as JSON. */
  body?: unknown;
}

/** The node's answer to a raw call. */
export interface RawNodeResponse {
  /** The node's HTTP status: one of the chain's answer statuses. */
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
  /** Why `verifyEndpoint` refused the URL, while it is skipped for that. */
  refused?: string;
}

export interface NodeClient {
  readonly chain: NodeChain;
  /** Calls a JSON-RPC `method` and returns its `result`. Throws the errors of node-errors.ts. */
  call<T = unknown>(method: string, params?: readonly unknown[], options?: BufferedCallOptions): Promise<T>;
  /**
   * Calls `method` and resolves with the bytes of its `result` as a stream, cut out of the node's
   * envelope whatever its key order, never held whole (a verbosity-2 block, a block with full
   * transactions). A refusal throws as `call` does.
   */
  callStreamed(method: string, params?: readonly unknown[], options?: CallOptions): Promise<Readable>;
  /** Sends an already-encoded JSON-RPC body (one call or a batch) and returns the node's status and streamed body. */
  callRaw(body: string, options?: CallOptions): Promise<RawNodeResponse>;
  /** Plain HTTP JSON (java-tron's `/wallet/getaccount`): `path` under each URL, the parsed answer; an error member of the chain throws NodeRpcError. */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** As `request`, the answer streamed and unread. */
  requestRaw(path: string, options?: Omit<RequestOptions, "lossless">): Promise<RawNodeResponse>;
  /** Health of each configured URL, credentials stripped. */
  upstreams(): UpstreamState[];
  /**
   * Skips the URL that answered the most recent call for a cool-down, as if it had failed (a node
   * that stays behind its peers): returns that URL as upstreams() shows it, undefined before any answer.
   */
  demoteCurrent(reason: string): string | undefined;
  close(): Promise<void>;
}

interface Upstream {
  /** Origin + path (+ query), no user info, no trailing slash: what requests go to. */
  url: string;
  /** `url` as logs, errors and upstreams() show it: provider keys in the path or query masked. */
  displayUrl: string;
  authorize: Authorizer | undefined;
  refreshable: boolean;
  unhealthyUntil: number;
  lastError?: string;
  /** `verifyEndpoint` accepted it since it last failed. */
  verified: boolean;
  /** The check under way: concurrent calls share it. */
  verifying?: Promise<Attempt<undefined>>;
  refused?: string;
}

type Attempt<T> =
  | { kind: "ok"; value: T }
  | { kind: "down"; reason: string }
  | { kind: "auth"; status: number }
  | { kind: "refused"; reason: string };

interface Exchange {
  path: string;
  method: "GET" | "POST";
  body: string | undefined;
  streamed: boolean;
  signal: AbortSignal | undefined;
}

/** Creates a client; a missing URL or credentials is reported per call (NodeNotConfiguredError), so a service can still start. */
export function createNodeClient(options: NodeClientOptions): NodeClient {
  const { chain } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const coolDownMs = options.coolDownMs ?? DEFAULT_COOL_DOWN_MS;
  const now = options.now ?? Date.now;
  const upstreams = options.urls.map((url) => toUpstream(url, options.auth ?? "none", chain.requiresAuth));
  const dispatcher = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS },
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  });
  let nextId = 0;
  /** The URL that answered the most recent call: what demoteCurrent demotes. */
  let answered: Upstream | undefined;

  async function send(upstream: Upstream, exchange: Exchange, refresh = false): Promise<Dispatcher.ResponseData> {
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
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: exchange.streamed ? streamIdleTimeoutMs : timeoutMs,
      signal,
    });
    if (AUTH_STATUSES.has(response.statusCode) && upstream.refreshable && !refresh) {
      await response.body.dump();
      return send(upstream, exchange, true);
    }
    return response;
  }

  /** Skipped for a cool-down; checked again by `verifyEndpoint` before it answers next. */
  function markDown(upstream: Upstream, reason: string): void {
    upstream.unhealthyUntil = now() + coolDownMs;
    upstream.lastError = reason;
    upstream.verified = false;
    delete upstream.refused;
  }

  /** `verifyEndpoint`'s verdict on a URL not checked since it last failed. */
  async function verify(upstream: Upstream): Promise<Attempt<undefined>> {
    const verifyEndpoint = options.verifyEndpoint;
    if (!verifyEndpoint || upstream.verified) return { kind: "ok", value: undefined };
    upstream.verifying ??= (async (): Promise<Attempt<undefined>> => {
      try {
        const refusal = await verifyEndpoint(endpointOf(upstream));
        if (refusal !== undefined) return { kind: "refused", reason: refusal };
        upstream.verified = true;
        delete upstream.refused;
        return { kind: "ok", value: undefined };
      } catch (error) {
        return { kind: "down", reason: `endpoint check failed: ${error instanceof Error ? error.message : String(error)}` };
      } finally {
        delete upstream.verifying;
      }
    })();
    return upstream.verifying;
  }

  /** A URL's own calls, failures thrown (verifyEndpoint's view of one node). */
  function endpointOf(upstream: Upstream): NodeEndpoint {
    const settle = <T>(outcome: Attempt<T>): T => {
      if (outcome.kind === "ok") return outcome.value;
      throw new NodeUnreachableError(chain, [
        { url: upstream.displayUrl, reason: outcome.kind === "auth" ? `HTTP ${outcome.status} (credentials refused)` : outcome.reason },
      ]);
    };
    return {
      url: upstream.displayUrl,
      call: async <T>(method: string, params: readonly unknown[] = []) => settle(await callAttempt<T>(upstream, method, params, {})),
      request: async <T>(path: string, requestOptions: Omit<RequestOptions, "signal" | "lossless"> = {}) =>
        settle(await requestAttempt<T>(upstream, path, requestOptions)),
    };
  }

  /** One JSON-RPC call to one URL. */
  async function callAttempt<T>(
    upstream: Upstream,
    method: string,
    params: readonly unknown[],
    callOptions: BufferedCallOptions,
  ): Promise<Attempt<T>> {
    const body = chain.envelope.encode(method, params, ++nextId);
    const exchange: Exchange = { path: chain.jsonRpcPath, method: "POST", body, streamed: false, signal: callOptions.signal };
    const answer = await exchangeJson(upstream, exchange, callOptions.lossless === true);
    if (answer.kind !== "ok") return answer;
    const { status, value } = answer.value;
    if (!isRecord(value)) return { kind: "down", reason: `HTTP ${status} with an unexpected JSON body` };
    // JSON-RPC 1.0 (bitcoind ≤ 27): error object with HTTP 500/404/400. JSON-RPC 2.0: HTTP 200, error without result.
    const error = rpcErrorIn(value, method);
    if (error) throw error;
    if (status !== 200 || !Object.hasOwn(value, "result")) return { kind: "down", reason: `HTTP ${status} without a JSON-RPC result` };
    return { kind: "ok", value: value.result as T };
  }

  /** One plain HTTP JSON request to one URL. */
  async function requestAttempt<T>(upstream: Upstream, path: string, requestOptions: RequestOptions): Promise<Attempt<T>> {
    const body = requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body);
    const exchange: Exchange = {
      path,
      method: requestOptions.method ?? (body === undefined ? "GET" : "POST"),
      body,
      streamed: false,
      signal: requestOptions.signal,
    };
    const answer = await exchangeJson(upstream, exchange, requestOptions.lossless === true);
    if (answer.kind !== "ok") return answer;
    const { status, value } = answer.value;
    if (!chain.answerStatuses.has(status)) return { kind: "down", reason: `HTTP ${status}` };
    const error = chain.restErrorIn?.(value);
    if (error) throw new NodeRpcError(chain, path, error.code, error.message, chain.reasonFor(error.code, error.message));
    return { kind: "ok", value: value as T };
  }

  /** Tries healthy URLs in order (all of them, in order, when none is healthy). */
  async function withFailover<T>(signal: AbortSignal | undefined, attempt: (upstream: Upstream) => Promise<Attempt<T>>): Promise<T> {
    if (upstreams.length === 0) throw new NodeNotConfiguredError(chain, "no node URL");
    const healthy = upstreams.filter((upstream) => upstream.unhealthyUntil <= now());
    const order = healthy.length > 0 ? [...healthy, ...upstreams.filter((upstream) => !healthy.includes(upstream))] : upstreams;
    const failures: Array<{ url: string; reason: string }> = [];
    let authFailure: { url: string; status: number } | undefined;
    let lastCause: unknown;
    for (const upstream of order) {
      if (signal?.aborted) throw new NodeCallAbortedError(chain, { cause: signal.reason });
      let outcome: Attempt<T>;
      try {
        const check = await verify(upstream);
        outcome = check.kind === "ok" ? await attempt(upstream) : check;
      } catch (error) {
        // The node's own answer or a configuration gap: not the URL's fault.
        if (error instanceof NodeRpcError || error instanceof NodeNotConfiguredError || error instanceof NodeAnswerError) throw error;
        lastCause = error;
        outcome = { kind: "down", reason: describeTransportError(error) };
      }
      if (outcome.kind === "ok") {
        upstream.unhealthyUntil = 0;
        delete upstream.lastError;
        answered = upstream;
        return outcome.value;
      }
      // Whatever failed after our caller gave up failed because of it, not because of the node.
      if (signal?.aborted) throw new NodeCallAbortedError(chain, { cause: signal.reason });
      const reason =
        outcome.kind === "auth"
          ? `HTTP ${outcome.status} (credentials refused)`
          : outcome.kind === "refused"
            ? `refused: ${outcome.reason}`
            : outcome.reason;
      if (outcome.kind === "auth") authFailure ??= { url: upstream.displayUrl, status: outcome.status };
      markDown(upstream, reason);
      if (outcome.kind === "refused") upstream.refused = outcome.reason;
      failures.push({ url: upstream.displayUrl, reason });
    }
    if (authFailure) throw new NodeAuthError(chain, authFailure.url, authFailure.status);
    throw new NodeUnreachableError(chain, failures, { cause: lastCause });
  }

  /** One buffered exchange: the node's JSON answer parsed, or why the URL is to be skipped. */
  async function exchangeJson(
    upstream: Upstream,
    exchange: Exchange,
    lossless: boolean,
  ): Promise<Attempt<{ status: number; value: unknown }>> {
    const response = await send(upstream, exchange);
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

  function rpcErrorIn(parsed: unknown, method: string): NodeRpcError | undefined {
    const error = isRecord(parsed) && Object.hasOwn(parsed, "error") ? parsed.error : undefined;
    if (!isRecord(error)) return undefined;
    return refusal(error, method);
  }

  function refusal(error: unknown, method: string): NodeRpcError {
    const record = isRecord(error) ? error : {};
    // A lossless call parses the error's code as a JsonNumber too.
    const code = typeof record.code === "number" ? record.code : record.code instanceof JsonNumber ? Number(record.code.text) : Number.NaN;
    const message = typeof record.message === "string" ? record.message : JSON.stringify(error);
    return new NodeRpcError(chain, method, code, message, chain.reasonFor(code, message));
  }

  async function streamed(
    path: string,
    method: "GET" | "POST",
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawNodeResponse> {
    return withFailover<RawNodeResponse>(signal, async (upstream) => {
      const response = await send(upstream, { path, method, body, streamed: true, signal });
      if (AUTH_STATUSES.has(response.statusCode)) {
        await response.body.dump();
        return { kind: "auth", status: response.statusCode };
      }
      const contentType = headerValue(response.headers["content-type"]);
      if (!chain.answerStatuses.has(response.statusCode) || !contentType.startsWith("application/json")) {
        const preview = await readPreview(response.body);
        return { kind: "down", reason: `HTTP ${response.statusCode} ${contentType || "without content type"} (${preview || "empty"})` };
      }
      return { kind: "ok", value: { status: response.statusCode, contentType, body: response.body, url: upstream.displayUrl } };
    });
  }

  const client: NodeClient = {
    chain,

    async call<T = unknown>(method: string, params: readonly unknown[] = [], callOptions: BufferedCallOptions = {}): Promise<T> {
      return withFailover<T>(callOptions.signal, (upstream) => callAttempt<T>(upstream, method, params, callOptions));
    },

    async callStreamed(method: string, params: readonly unknown[] = [], callOptions: CallOptions = {}): Promise<Readable> {
      const answer = await client.callRaw(chain.envelope.encode(method, params, ++nextId), callOptions);
      const badAnswer = (what: string, cause?: unknown) => new NodeAnswerError(chain, `${method}: ${what}`, { cause });
      if (answer.status !== 200) {
        // A JSON-RPC 1.0 refusal (HTTP 400/404/500): small, read it whole.
        const raw = (await text(answer.body)).slice(0, MAX_REFUSAL_CHARS);
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch (cause) {
          throw badAnswer(`HTTP ${answer.status} with a non-JSON body (${raw.slice(0, PREVIEW_CHARS)})`, cause);
        }
        throw rpcErrorIn(parsed, method) ?? badAnswer(`HTTP ${answer.status} without an error object`);
      }
      try {
        return await streamJsonRpcResult(answer.body, { refusal: (error) => refusal(error, method), badAnswer });
      } catch (error) {
        if (callOptions.signal?.aborted) throw new NodeCallAbortedError(chain, { cause: error });
        throw error;
      }
    },

    callRaw(body: string, callOptions: CallOptions = {}): Promise<RawNodeResponse> {
      return streamed(chain.jsonRpcPath, "POST", body, callOptions.signal);
    },

    async request<T = unknown>(path: string, requestOptions: RequestOptions = {}): Promise<T> {
      return withFailover<T>(requestOptions.signal, (upstream) => requestAttempt<T>(upstream, path, requestOptions));
    },

    requestRaw(path: string, requestOptions: Omit<RequestOptions, "lossless"> = {}): Promise<RawNodeResponse> {
      const body = requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body);
      return streamed(path, requestOptions.method ?? (body === undefined ? "GET" : "POST"), body, requestOptions.signal);
    },

    upstreams() {
      return upstreams.map((upstream) => {
        const state: UpstreamState = {
          url: upstream.displayUrl,
          healthy: upstream.unhealthyUntil <= now(),
          unhealthyUntil: upstream.unhealthyUntil,
        };
        if (upstream.lastError !== undefined) state.lastError = upstream.lastError;
        if (upstream.refused !== undefined) state.refused = upstream.refused;
        return state;
      });
    },

    demoteCurrent(reason: string) {
      if (!answered) return undefined;
      markDown(answered, reason);
      return answered.displayUrl;
    },

    async close() {
      await dispatcher.close();
    },
  };
  return options.onCall ? observeNodeCalls(client, options.onCall) : client;
}

/** A URL's credentials move out of it: the stored and displayed URL never carries them. */
function toUpstream(rawUrl: string, auth: NodeAuth, requiresAuth: boolean): Upstream {
  const url = new URL(rawUrl);
  let upstreamAuth = auth;
  if (url.username !== "") {
    upstreamAuth = { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
    url.username = "";
    url.password = "";
  }
  const missing = upstreamAuth === "none" && requiresAuth;
  return {
    url: url.toString().replace(/\/$/, ""),
    displayUrl: displayUrl(url),
    authorize: missing ? undefined : createAuthorizer(upstreamAuth),
    refreshable: canRefresh(upstreamAuth),
    unhealthyUntil: 0,
    verified: false,
  };
}

/** `path` appended to the URL's own path, its query kept (a provider key may sit there). */
function targetUrl(base: string, path: string): string {
  if (path === "") return base;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, "")}${path}`;
  return url.toString();
}

/** A path segment that looks like a provider key (Infura /v3/<key>, Alchemy /v2/<key>, QuickNode /<token>/): long, letters and digits. */
const KEY_LIKE_SEGMENT = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{16,}$/;
const MASK = "[redacted]";

/** The URL for logs and errors: key-like path segments and every query value masked (user info is already gone). */
function displayUrl(url: URL): string {
  const shown = new URL(url);
  shown.pathname = shown.pathname
    .split("/")
    .map((segment) => (KEY_LIKE_SEGMENT.test(segment) ? MASK : segment))
    .join("/");
  for (const name of [...new Set(shown.searchParams.keys())]) shown.searchParams.set(name, MASK);
  return decodeURI(shown.toString()).replace(/\/$/, "");
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

function describeTransportError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const nested = (error.cause as { code?: unknown } | undefined)?.code;
    const label = [typeof code === "string" ? code : undefined, typeof nested === "string" ? nested : undefined].filter(Boolean).join("/");
    return label ? `${label}: ${error.message}` : `${error.name}: ${error.message}`;
  }
  return String(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
