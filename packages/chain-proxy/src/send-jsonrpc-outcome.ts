/**
 * Answers a JSON-RPC proxy's exchange (the outcome of forwardJsonRpc) with the content type it
 * names, sent as given: express's res.json()/res.type() would add "; charset=utf-8", and clients of bitcoind (the `bitcoin-core` npm client) read an error body
 * only when the type is exactly bitcoind's `application/json`.
 */
import type { BufferGarbageBound } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Response } from "express";
import type { JsonRpcForwardOutcome } from "./exchange-jsonrpc.ts";
import { pipeNodeBody } from "./pipe-node-body.ts";

export interface SendJsonRpcOutcomeOptions {
  signal: AbortSignal;
  logger: Logger;
  garbageBound?: BufferGarbageBound | undefined;
}

export function sendJsonRpcOutcome(
  res: Response,
  outcome: JsonRpcForwardOutcome,
  { signal, logger, garbageBound }: SendJsonRpcOutcomeOptions,
): void {
  if (outcome.kind === "client-gone") return;
  if (outcome.kind === "stream") {
    pipeNodeBody(outcome.body, res, { signal, logger, garbageBound, context: { route: "jsonrpc" }, contentType: outcome.contentType });
    return;
  }
  if (outcome.problem) logger.error({ err: outcome.problem.cause }, outcome.problem.message);
  const payload = JSON.stringify(outcome.body);
  res
    .status(outcome.status)
    .setHeader("content-type", outcome.contentType)
    .setHeader("content-length", Buffer.byteLength(payload))
    .end(payload);
}
