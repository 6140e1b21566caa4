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
 *
 * The steps live in transport/: with-failover.ts (failover and cool-downs), verify-upstream.ts
 * (endpoint verification), exchange-json.ts (one buffered exchange), call-attempt.ts and
 * request-attempt.ts (one JSON-RPC call, one plain HTTP request), exchange-streamed.ts and
 * call-streamed.ts (streamed answers), upstream-health.ts (health reported and demoted).
 */
import type { Readable } from "node:stream";
import { Agent } from "undici";
import type { BufferedCallOptions, CallOptions, NodeClient, RawNodeResponse, RequestOptions } from "./node-client.ts";
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_COOL_DOWN_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  type NodeClientOptions,
} from "./node-client-options.ts";
import { observeNodeCalls } from "./observe-node-calls.ts";
import { callAttempt } from "./transport/call-attempt.ts";
import { callStreamed } from "./transport/call-streamed.ts";
import { exchangeStreamed } from "./transport/exchange-streamed.ts";
import type { NodeClientContext } from "./transport/node-client-context.ts";
import { requestAttempt } from "./transport/request-attempt.ts";
import { toUpstream } from "./transport/upstream.ts";
import { demoteCurrent, upstreamStates } from "./transport/upstream-health.ts";
import { withFailover } from "./transport/with-failover.ts";

const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/** Creates a client; a missing URL or credentials is reported per call (NodeNotConfiguredError), so a service can still start. */
export function createNodeClient(options: NodeClientOptions): NodeClient {
  const { chain } = options;
  const context: NodeClientContext = {
    chain,
    options,
    timeoutMs: options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    streamIdleTimeoutMs: options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    coolDownMs: options.coolDownMs ?? DEFAULT_COOL_DOWN_MS,
    now: options.now ?? Date.now,
    upstreams: options.urls.map((url) => toUpstream(url, options.auth ?? "none", chain.requiresAuth)),
    dispatcher: new Agent({
      connect: { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS },
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    }),
    nextId: 0,
    answered: undefined,
  };

  const client: NodeClient = {
    chain,

    async call<T = unknown>(method: string, params: readonly unknown[] = [], callOptions: BufferedCallOptions = {}): Promise<T> {
      return withFailover<T>(context, callOptions.signal, (upstream) => callAttempt<T>(context, upstream, method, params, callOptions));
    },

    async callStreamed(method: string, params: readonly unknown[] = [], callOptions: CallOptions = {}): Promise<Readable> {
      return callStreamed(context, method, params, callOptions);
    },

    callRaw(body: string, callOptions: CallOptions = {}): Promise<RawNodeResponse> {
      return exchangeStreamed(context, chain.jsonRpcPath, "POST", body, callOptions.signal);
    },

    async request<T = unknown>(path: string, requestOptions: RequestOptions = {}): Promise<T> {
      return withFailover<T>(context, requestOptions.signal, (upstream) => requestAttempt<T>(context, upstream, path, requestOptions));
    },

    requestRaw(path: string, requestOptions: Omit<RequestOptions, "lossless"> = {}): Promise<RawNodeResponse> {
      const body = requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body);
      return exchangeStreamed(context, path, requestOptions.method ?? (body === undefined ? "GET" : "POST"), body, requestOptions.signal);
    },

    upstreams: () => upstreamStates(context),

    demoteCurrent: (reason: string) => demoteCurrent(context, reason),

    async close() {
      await context.dispatcher.close();
    },
  };
  return options.onCall ? observeNodeCalls(client, options.onCall) : client;
}
