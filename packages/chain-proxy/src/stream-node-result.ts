/**
 * Calls the node and streams its `result` to the client as the response body, never holding it
 * whole. A node error answers through the error table (500 with details). The call is cancelled
 * when the client goes away. With `whenNull`, a `null` result (no such block, transaction or
 * receipt) is told from the first byte, before anything is sent, and thrown as that error.
 */
import { abortOnClose } from "@chaingate/http";
import { NodeCallAbortedError } from "@chaingate/node-client";
import type { Response } from "express";
import { peekFirstByte } from "./peek-first-byte.ts";
import { pipeNodeBody } from "./pipe-node-body.ts";
import type { ProxyRoute } from "./proxy-route.ts";

const NULL_FIRST_BYTE = "n".charCodeAt(0);

export interface StreamNodeResultOptions {
  /** The error for a `null` result; unset, `null` streams like any other result. */
  whenNull?: () => Error;
}

export async function streamNodeResult(
  { node, logger, garbageBound }: ProxyRoute,
  res: Response,
  method: string,
  params: unknown[],
  { whenNull }: StreamNodeResultOptions = {},
): Promise<void> {
  const signal = abortOnClose(res);
  const body = await node.callStreamed(method, params, { signal });
  if (whenNull) {
    let first: number | undefined;
    try {
      first = await peekFirstByte(body);
    } catch (error) {
      // The client left while the node was still silent: no node failure, nothing to log.
      if (signal.aborted) throw new NodeCallAbortedError(node.chain, { cause: error });
      throw error;
    }
    if (first === NULL_FIRST_BYTE) {
      body.destroy();
      throw whenNull();
    }
  }
  pipeNodeBody(body, res, { signal, logger, garbageBound, context: { method } });
}
