/**
 * Every node call, timed and classified, for metrics: a call is observed when its answer (for a
 * streamed call, its headers) arrives or it fails.
 */
import type { NodeClient } from "./node-client.ts";
import { NodeCallAbortedError, nodeFailureDetails } from "./node-errors.ts";

export interface NodeCallObservation {
  /** The JSON-RPC method, the REST path (`/wallet/getaccount`), or `jsonrpc` for a relayed body. */
  method: string;
  seconds: number;
  /** `ok`, a node failure reason (`not_found`, `node_unreachable`, …), `aborted` (the client left), or `error`. */
  outcome: string;
}

export type NodeCallObserver = (observation: NodeCallObservation) => void;

function outcomeOf(error: unknown): string {
  if (error instanceof NodeCallAbortedError) return "aborted";
  return nodeFailureDetails(error)?.reason ?? "error";
}

export function observeNodeCalls(client: NodeClient, onCall: NodeCallObserver): NodeClient {
  async function timed<T>(method: string, work: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const value = await work();
      onCall({ method, seconds: seconds(), outcome: "ok" });
      return value;
    } catch (error) {
      onCall({ method, seconds: seconds(), outcome: outcomeOf(error) });
      throw error;
    }
  }
  return {
    ...client,
    call: (method, params, options) => timed(method, () => client.call(method, params, options)),
    callStreamed: (method, params, options) => timed(method, () => client.callStreamed(method, params, options)),
    callRaw: (body, options) => timed("jsonrpc", () => client.callRaw(body, options)),
    request: (path, options) => timed(path, () => client.request(path, options)),
    requestRaw: (path, options) => timed(path, () => client.requestRaw(path, options)),
  };
}
