/**
 * Calls the node and streams its `result` to the client as the response body, never holding it
 * whole. A node error answers through the error table (500 with details). The call is cancelled
 * when the client goes away.
 */
import { abortOnClose, pipeNodeBody, type BufferGarbageBound } from "@chaingate/http";
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
  pipeNodeBody(body, res, { signal, logger, garbageBound, context: { method } });
}
