/**
 * Calls the node and streams its `result` to the client as the response body, never holding it
 * whole. A node error answers through the error table (500 with details). The call is cancelled
 * when the client goes away.
 */
import { pipeline } from "node:stream";
import { abortOnClose, type BufferGarbageBound } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { NodeClient } from "@chaingate/node-client";
import type { Response } from "express";

export interface NodeRoute {
  node: NodeClient;
  logger: Logger;
  garbageBound?: BufferGarbageBound;
}

export async function streamNodeResult({ node, logger, garbageBound }: NodeRoute, res: Response, method: string, params: unknown[]): Promise<void> {
  const signal = abortOnClose(res);
  const body = await node.callStreamed(method, params, { signal });
  res.status(200).type("application/json");
  garbageBound?.watch(res, undefined);
  pipeline(body, res, (error) => {
    if (!error) return;
    // Headers are gone: a broken node body can only end the connection. A client that left is no fault.
    if (!signal.aborted) logger.error({ err: error, method }, "the node's streamed answer failed; connection cut");
    if (!res.destroyed) res.destroy(error);
  });
}
