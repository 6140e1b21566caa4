/**
 * Calls the node and streams its `result` to the client as the response body, never holding it
 * whole. A node error answers through the error table (500 with details).
 */
import { pipeline } from "node:stream";
import type { BufferGarbageBound } from "@chaingate/http";
import type { Response } from "express";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";
import { unwrapRpcResult } from "./unwrap-rpc-result.ts";

export async function streamNodeResult(
  node: BitcoinRpcClient,
  res: Response,
  method: string,
  params: unknown[],
  garbageBound?: BufferGarbageBound,
): Promise<void> {
  const body = await node.callStreamed(method, params);
  res.status(200).type("application/json");
  garbageBound?.watch(res, undefined);
  pipeline(body, unwrapRpcResult(), res, (error) => {
    // Headers are gone: a broken node body can only end the connection.
    if (error && !res.destroyed) res.destroy(error);
  });
}
