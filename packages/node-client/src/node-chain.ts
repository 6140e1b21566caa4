/**
 * A chain adapter: what differs between bitcoind, geth/Hardhat and java-tron for the shared
 * transport. The transport (failover, timeouts, cancellation, streaming) knows no chain.
 */
import type { ChainLabel, NodeFailureReason } from "./node-errors.ts";

/** A JSON-RPC dialect: how one call is written on the wire. */
export interface JsonRpcEnvelope {
  version: "1.0" | "2.0";
  /** The body of one call, members in the order the node's own clients write them. */
  encode(method: string, params: readonly unknown[], id: number): string;
}

export interface NodeChain extends ChainLabel {
  envelope: JsonRpcEnvelope;
  /**
   * HTTP statuses whose JSON body is the node's own answer, never retried on another URL:
   * 200, plus bitcoind's JSON-RPC 1.0 error statuses (400 invalid request, 404 method not found,
   * 500 other errors).
   */
  answerStatuses: ReadonlySet<number>;
  /** Whether a node of this chain refuses calls without credentials (bitcoind), so a missing one is a configuration gap. */
  requiresAuth: boolean;
  /** Appended to every URL for JSON-RPC calls: "" when the URL is the endpoint, "/jsonrpc" for java-tron. */
  jsonRpcPath: string;
  /** The chain's code table: a node error code (and, where codes are coarse, its message) → reason. */
  reasonFor(code: number, message: string): NodeFailureReason;
  /** Plain HTTP JSON APIs (java-tron's /wallet/*) answer errors with 200 and an error member: found here. */
  restErrorIn?(answer: unknown): { code: number; message: string } | undefined;
}

/** JSON-RPC 1.0 as bitcoind's own clients write it: `{"jsonrpc":"1.0","id":…,"method":…,"params":…}`. */
export const JSONRPC_1_0: JsonRpcEnvelope = {
  version: "1.0",
  encode: (method, params, id) => JSON.stringify({ jsonrpc: "1.0", id, method, params }),
};

/** JSON-RPC 2.0 with `jsonrpc` and `id` first, as geth, erigon and Hardhat write and answer. */
export const JSONRPC_2_0: JsonRpcEnvelope = {
  version: "2.0",
  encode: (method, params, id) => JSON.stringify({ jsonrpc: "2.0", id, method, params }),
};

/** A code table: codes per reason, anything else `node_error`. */
export function reasonTable(table: Partial<Record<NodeFailureReason, readonly number[]>>): (code: number) => NodeFailureReason {
  const byCode = new Map<number, NodeFailureReason>();
  for (const [reason, codes] of Object.entries(table) as [NodeFailureReason, readonly number[]][])
    for (const code of codes) byCode.set(code, reason);
  return (code) => byCode.get(code) ?? "node_error";
}
