/**
 * Calls the node and streams its `result` to the client as the response body, never holding it
 * whole. A node error answers through the error table (500 with details).
 */
import { pipeline } from "node:stream";
import { text } from "node:stream/consumers";
import type { BufferGarbageBound } from "@chaingate/http";
import type { Response } from "express";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";
import { BitcoinNodeRpcError } from "../infra/bitcoin-rpc-errors.ts";
import { unwrapRpcResult } from "./unwrap-rpc-result.ts";

export async function streamNodeResult(
  node: BitcoinRpcClient,
  res: Response,
  method: string,
  params: unknown[],
  garbageBound?: BufferGarbageBound,
): Promise<void> {
  const answer = await node.callRaw(JSON.stringify({ jsonrpc: "1.0", id: 1, method, params }));
  if (answer.status !== 200) throw await nodeErrorFrom(method, answer.body);
  res.status(200).type("application/json");
  garbageBound?.watch(res, undefined);
  pipeline(answer.body, unwrapRpcResult(), res, (error) => {
    // Headers are gone: a broken node body can only end the connection.
    if (error && !res.destroyed) res.destroy(error);
  });
}

/** The node's JSON-RPC error from a non-200 answer (small: read whole). */
export async function nodeErrorFrom(method: string, body: NodeJS.ReadableStream): Promise<BitcoinNodeRpcError> {
  const raw = await text(body);
  try {
    const { error } = JSON.parse(raw) as { error?: { code?: number; message?: string } };
    return new BitcoinNodeRpcError(method, error?.code ?? -1, error?.message ?? "unknown node error");
  } catch {
    return new BitcoinNodeRpcError(method, -1, raw.slice(0, 200));
  }
}
