/** How a node client is configured (createNodeClient's options) and the defaults of its timings. */
import type { NodeAuth } from "./node-auth.ts";
import type { NodeChain } from "./node-chain.ts";
import type { NodeEndpoint } from "./node-client.ts";
import type { NodeCallObserver } from "./observe-node-calls.ts";

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
