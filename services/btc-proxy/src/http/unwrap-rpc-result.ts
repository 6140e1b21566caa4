/**
 * Streams the `result` member out of a bitcoind JSON-RPC 1.0 success body without parsing it:
 * the node writes `{"result":` first and `,"error":null,"id":<id>}` last, so the block in
 * between passes through chunk by chunk (a verbosity-2 block is megabytes).
 */
import { Transform, type TransformCallback } from "node:stream";

const PREFIX = Buffer.from('{"result":');
/** Longest tail withheld until the end; the suffix is far shorter. */
const TAIL_BYTES = 128;
const SUFFIX = /,"error":null,"id":(?:-?\d+|"[^"\\]*"|null)\}\s*$/;

export class UnexpectedRpcBodyError extends Error {
  override name = "UnexpectedRpcBodyError";
}

export function unwrapRpcResult(): Transform {
  let head: Buffer | undefined = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let data = chunk;
      if (head) {
        head = Buffer.concat([head, data]);
        if (head.length < PREFIX.length) return done();
        if (!head.subarray(0, PREFIX.length).equals(PREFIX)) return done(new UnexpectedRpcBodyError("node body does not start with a result"));
        data = head.subarray(PREFIX.length);
        head = undefined;
      }
      // Emit the withheld tail and all but the last TAIL_BYTES of this chunk as views, copying
      // only the small new tail: no per-chunk concatenation of megabytes.
      if (data.length >= TAIL_BYTES) {
        if (tail.length) this.push(tail);
        this.push(data.subarray(0, data.length - TAIL_BYTES));
        tail = Buffer.from(data.subarray(data.length - TAIL_BYTES));
      } else {
        const pending = Buffer.concat([tail, data]);
        const emit = pending.length - TAIL_BYTES;
        if (emit > 0) this.push(pending.subarray(0, emit));
        tail = emit > 0 ? Buffer.from(pending.subarray(emit)) : pending;
      }
      done();
    },
    flush(done: TransformCallback) {
      const text = tail.toString("latin1");
      const match = head ? null : SUFFIX.exec(text);
      if (!match) return done(new UnexpectedRpcBodyError("node body does not end with a successful envelope"));
      this.push(tail.subarray(0, match.index));
      done();
    },
  });
}
