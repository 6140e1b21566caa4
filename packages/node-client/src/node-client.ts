/**
 * What a node client offers its callers: JSON-RPC calls (buffered, streamed or raw), plain HTTP
 * JSON requests, and the health of the node URLs behind them (create-node-client.ts builds one).
 */
import type { Readable } from "node:stream";
import type { NodeChain } from "./node-chain.ts";

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
