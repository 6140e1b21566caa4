/**
 * Calls the node and streams its `result` object to the client as the response body, never
 * holding it whole. A `null` result (no such block, transaction or receipt) is not_found, told
 * from the first byte before anything is sent. The call is cancelled when the client goes away.
 */
import type { Readable } from "node:stream";
import { abortOnClose, pipeNodeBody } from "@chaingate/http";
import type { Response } from "express";
import type { NodeRoute } from "./node-route.ts";
import { EthNotFoundError } from "./request-errors.ts";

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NULL_FIRST_BYTE = "n".charCodeAt(0);

export async function streamNodeObject({ node, logger, garbageBound }: NodeRoute, res: Response, method: string, params: unknown[], what: string): Promise<void> {
  const signal = abortOnClose(res);
  const body = await node.callStreamed(method, params, { signal });
  if ((await firstByte(body)) === NULL_FIRST_BYTE) {
    body.destroy();
    throw new EthNotFoundError(what);
  }
  pipeNodeBody(body, res, { signal, logger, garbageBound, context: { method } });
}

/** Reads until the first non-blank byte and puts what it read back; undefined for an empty body. */
async function firstByte(body: Readable): Promise<number | undefined> {
  const read: Buffer[] = [];
  let found: number | undefined;
  for (;;) {
    const chunk = await nextChunk(body);
    if (chunk === null) break;
    read.push(chunk);
    found = chunk.find((byte) => !WHITESPACE.has(byte));
    if (found !== undefined) break;
  }
  for (const chunk of read.reverse()) body.unshift(chunk);
  return found;
}

function nextChunk(body: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const tryRead = () => {
      const chunk = body.read() as Buffer | string | null;
      if (chunk !== null) return done(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      if (body.readableEnded) return done(null);
    };
    const onEnd = () => done(null);
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const done = (value: Buffer | null) => {
      cleanup();
      resolve(value);
    };
    const cleanup = () => {
      body.off("readable", tryRead);
      body.off("end", onEnd);
      body.off("error", onError);
    };
    body.on("readable", tryRead);
    body.on("end", onEnd);
    body.on("error", onError);
    tryRead();
  });
}
