/**
 * Streams an upstream node's body to the client with 200. Headers are gone once it starts: a
 * broken node body can only end the connection, and is logged; a client that left (its request's
 * AbortSignal fired) is no fault, and is not.
 */
import { pipeline, type Readable } from "node:stream";
import type { BufferGarbageBound } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Response } from "express";

export interface PipeNodeBodyOptions {
  /** The request's signal (abortOnClose): set when the client went away. */
  signal: AbortSignal;
  logger: Logger;
  garbageBound?: BufferGarbageBound | undefined;
  /** Fields for the log line of a failure, e.g. the node method. */
  context?: Record<string, unknown>;
  /** Sent exactly as given (the node's own, for a JSON-RPC proxy); default `application/json; charset=utf-8`. */
  contentType?: string;
}

export function pipeNodeBody(
  body: Readable,
  res: Response,
  { signal, logger, garbageBound, context = {}, contentType }: PipeNodeBodyOptions,
): void {
  res.status(200);
  // res.type() would add "; charset=utf-8" to whatever it is given.
  if (contentType) res.setHeader("content-type", contentType);
  else res.type("application/json");
  garbageBound?.watch(res, undefined);
  const logFailure = (error: unknown) => {
    if (!signal.aborted) logger.error({ err: error, ...context }, "the node's streamed answer failed; connection cut");
  };
  // Read before pipeline() tears everything down (then the client's leaving looks like any
  // failure); a short body can have failed already, before this function was called.
  if (body.errored) logFailure(body.errored);
  else body.once("error", logFailure);
  pipeline(body, res, (error) => {
    if (error && !res.destroyed) res.destroy(error);
  });
}
