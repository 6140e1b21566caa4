/** Looks at the first non-blank byte of a stream without taking anything from it. */
import type { Readable } from "node:stream";

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Reads until the first byte that is not JSON whitespace and puts everything read back, in order,
 * so the stream can still be piped whole. Undefined for a stream that ends blank.
 */
export async function peekFirstByte(body: Readable): Promise<number | undefined> {
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
    const done = (value: Buffer | null) => {
      cleanup();
      resolve(value);
    };
    const tryRead = () => {
      const chunk = body.read() as Buffer | string | null;
      if (chunk !== null) done(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      else if (body.readableEnded) done(null);
    };
    const onEnd = () => done(null);
    const onError = (error: Error) => {
      cleanup();
      reject(error);
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
