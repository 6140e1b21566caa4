/**
 * Cuts the `result` member out of a JSON-RPC answer while it streams, whatever the key order:
 * bitcoind writes `{"result":…,"error":null,"id":1}`, geth and Hardhat
 * `{"jsonrpc":"2.0","id":1,"result":…}`. A tokenizer (@streamparser/json) reads the envelope's
 * own tokens; the insides of its members' objects and arrays (a block of megabytes) are only
 * scanned for strings and brackets, which is many times faster than tokenizing them, and pass
 * through as views of the node's chunks, never assembled: a megabytes-large block (or a
 * verbosity-0 hex string) costs no more memory than a few chunks.
 *
 * Invariants: only the top-level members `result` and `error` are looked at; a non-null `error`
 * is the node's refusal; a body that is not one complete JSON object is an error of the stream.
 * The result's inside is passed through, not validated: the client parses it.
 *
 * The steps, per chunk, live in stream-jsonrpc-result/: scan-envelope-bytes.ts (strings and
 * brackets; the envelope's bytes to the tokenizer), envelope-reader.ts (the envelope's tokens:
 * where the members are), member-bytes.ts (the result's bytes streamed or held, the error's held).
 */
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { createEnvelopeReader } from "./stream-jsonrpc-result/envelope-reader.ts";
import { finishAnswer, heldResult, takeMemberBytes } from "./stream-jsonrpc-result/member-bytes.ts";
import { scanEnvelopeBytes } from "./stream-jsonrpc-result/scan-envelope-bytes.ts";

export interface StreamResultHandlers {
  /** The node's non-null `error` member, parsed → the error to throw. */
  refusal(error: unknown): Error;
  /** The body is not a usable answer (`what` says why). */
  badAnswer(what: string, cause?: unknown): Error;
}

/**
 * Resolves with the result's bytes as a stream once they begin; a `null` result (which a later
 * `error` member may contradict, as in bitcoind's `{"result":null,"error":{…}}`) once the answer
 * has ended. Rejects with `refusal` or `badAnswer` when the answer is not a result. After it
 * resolved, a broken remainder (cut body, a late error member) fails the returned stream.
 */
export function streamJsonRpcResult(body: Readable, handlers: StreamResultHandlers): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) => {
    let settled = false;
    const reader = createEnvelopeReader(handlers);
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve(output);
    };

    let position = 0;
    const output = new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        const chunkStart = position;
        position += chunk.length;
        scanEnvelopeBytes(reader, chunk, chunkStart);
        if (reader.failure) return done(reader.failure);
        takeMemberBytes(reader, chunk, chunkStart, (bytes) => this.push(bytes), settle);
        done(reader.failure);
      },
      flush(done: TransformCallback) {
        finishAnswer(reader);
        if (reader.failure) return done(reader.failure);
        const held = heldResult(reader);
        if (held !== undefined) this.push(held);
        settle();
        done();
      },
    });
    output.on("error", (cause) => {
      if (settled) return;
      settled = true;
      reject(cause);
    });
    body.on("error", (cause) => output.destroy(reader.failure ?? handlers.badAnswer("the node's body failed", cause)));
    output.on("close", () => {
      if (!body.destroyed) body.destroy();
    });
    body.pipe(output);
  });
}
