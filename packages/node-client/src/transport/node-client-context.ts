/** What every operation of one node client shares: its settings, its URLs and their health, its HTTP agent. */
import type { Agent } from "undici";
import type { NodeChain } from "../node-chain.ts";
import type { NodeClientOptions } from "../node-client-options.ts";
import type { Upstream } from "./upstream.ts";

/** How much of an unusable answer is quoted in the reason a URL was skipped. */
export const PREVIEW_CHARS = 80;

export interface NodeClientContext {
  readonly chain: NodeChain;
  readonly options: NodeClientOptions;
  readonly timeoutMs: number;
  readonly streamIdleTimeoutMs: number;
  readonly coolDownMs: number;
  readonly now: () => number;
  readonly upstreams: readonly Upstream[];
  readonly dispatcher: Agent;
  /** The id of the most recent JSON-RPC request: the next one takes the one after it. */
  nextId: number;
  /** The URL that answered the most recent call: what demoteCurrent demotes. */
  answered: Upstream | undefined;
}

/** One try of one URL: its value, or why the URL is to be skipped. */
export type Attempt<T> =
  | { kind: "ok"; value: T }
  | { kind: "down"; reason: string }
  | { kind: "auth"; status: number }
  | { kind: "refused"; reason: string };

/** One HTTP request to a URL: `path` under it. */
export interface Exchange {
  path: string;
  method: "GET" | "POST";
  body: string | undefined;
  streamed: boolean;
  signal: AbortSignal | undefined;
}
