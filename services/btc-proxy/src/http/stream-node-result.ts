/**
 * Calls the node and streams its `result` to the client as the response body, never holding it
 * whole. A node error answers through the error table (500 with details). The call is cancelled
 * when the client goes away.
 */
import { pipeline, type Readable } from "node:stream";
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
  pipeNodeBody(body, res, { signal, logger, garbageBound, context: { method } });
}

/**
 * Streams a node's body to the client with 200. Headers are gone once it starts: a broken node
 * body can only end the connection, and is logged; a client that left is no fault and is not.
 */
export function pipeNodeBody(
  body: Readable,
  res: Response,
  { signal, logger, garbageBound, context }: { signal: AbortSignal; logger: Logger; garbageBound?: BufferGarbageBound; context: Record<string, unknown> },
): void {
  res.status(200).type("application/json");
  garbageBound?.watch(res, undefined);
  // Read before pipeline() tears everything down: then the client's leaving looks like any failure.
  const logFailure = (error: unknown) => {
    if (!signal.aborted) logger.error({ err: error, ...context }, "the node's streamed answer failed; connection cut");
  };
  // A short body can have failed already, between the call resolving and this line.
  if (body.errored) logFailure(body.errored);
  else body.once("error", logFailure);
  pipeline(body, res, (error) => {
    if (error && !res.destroyed) res.destroy(error);
  });
}
