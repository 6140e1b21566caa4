/**
 * Calls the node and streams its `result` object to the client as the response body, never
 * holding it whole. A `null` result (no such block, transaction or receipt) is not_found, told
 * from the first byte before anything is sent. The call is cancelled when the client goes away.
 */
import { abortOnClose, pipeNodeBody } from "@chaingate/http";
import { ethereum, NodeCallAbortedError } from "@chaingate/node-client";
import type { Response } from "express";
import type { NodeRoute } from "./node-route.ts";
import { peekFirstByte } from "./peek-first-byte.ts";
import { EthNotFoundError } from "./request-errors.ts";

const NULL_FIRST_BYTE = "n".charCodeAt(0);

export async function streamNodeObject({ node, logger, garbageBound }: NodeRoute, res: Response, method: string, params: unknown[], what: string): Promise<void> {
  const signal = abortOnClose(res);
  const body = await node.callStreamed(method, params, { signal });
  let first: number | undefined;
  try {
    first = await peekFirstByte(body);
  } catch (error) {
    // The client left while the node was still silent: no node failure, nothing to log.
    if (signal.aborted) throw new NodeCallAbortedError(ethereum, { cause: error });
    throw error;
  }
  if (first === NULL_FIRST_BYTE) {
    body.destroy();
    throw new EthNotFoundError(what);
  }
  pipeNodeBody(body, res, { signal, logger, garbageBound, context: { method } });
}
