/**
 * What the node fault proxy's answerers share: an answer as bytes, one JSON-RPC call, the
 * per-request context, and readers and writers of JSON-RPC envelopes.
 */
import type { NodeFaults } from "../node-fault-proxy.ts";

export const JSON_TYPE = "application/json";

/** An answer to one call, as bytes: the upstream's untouched or one the proxy made. */
export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

export interface JsonRpcCall {
  id?: unknown;
  jsonrpc?: string;
  method?: string;
  params?: unknown[];
}

/** The per-request context: the view's lag and how to reach the upstream with the client's credentials. */
export interface RequestContext {
  lag: number;
  forward(path: string, body: string): Promise<Answer>;
  faults: NodeFaults;
  draw(): number;
}

/** An answer in the node's own envelope: bitcoind's 1.0 (`result`, `error`, `id`), Ethereum's 2.0. */
export const jsonRpcAnswer = (
  chain: "bitcoin" | "ethereum",
  call: JsonRpcCall,
  member: { result: unknown } | { error: { code: number; message: string } },
) =>
  JSON.stringify(
    chain === "bitcoin"
      ? { result: null, error: null, ...member, id: call.id ?? null }
      : { jsonrpc: "2.0", id: call.id ?? null, ...member },
  );

/** The `result` of an answer body, for reading heights only (the bytes sent on stay the upstream's). */
export function resultOf(answer: Answer): unknown {
  try {
    return (JSON.parse(answer.body) as { result?: unknown }).result;
  } catch {
    return undefined;
  }
}

/** The served tip: the upstream's minus the view's lag. */
export async function servedTip(context: RequestContext, upstreamTip: () => Promise<number>): Promise<number> {
  return Math.max(0, (await upstreamTip()) - context.lag);
}
