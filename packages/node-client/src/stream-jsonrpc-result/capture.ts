/** A top-level member (`result` or `error`) of a JSON-RPC answer, located in the body as it streams. */

export const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);

export interface Capture {
  key: "result" | "error";
  /** Offset of the first byte after the member's colon (whitespace before the value included). */
  start: number;
  /** Offset just past the value, once known (a container's closer, or the `,`/`}` after a primitive). */
  end?: number;
  /** The value's first byte, once seen. */
  firstByte?: number;
  /** The value is `null` (known from its token). */
  isNull: boolean;
  /** Held bytes: an error, or a `null` result that a later error may still contradict. */
  held: Buffer[];
  heldBytes: number;
  /** Streaming: whitespace withheld until more of the value follows (it may be the value's trailing whitespace). */
  pendingWhitespace?: Buffer;
  streaming: boolean;
}

/** The member `key`, its value starting at body offset `start`. */
export function createCapture(key: Capture["key"], start: number): Capture {
  return { key, start, isNull: false, held: [], heldBytes: 0, streaming: false };
}

/** This chunk's bytes of `target`, leading whitespace skipped. */
export function sliceCapture(target: Capture | undefined, chunk: Buffer, chunkStart: number): Buffer | undefined {
  if (!target) return undefined;
  let from = Math.max(target.start, chunkStart) - chunkStart;
  const to = (target.end === undefined ? chunkStart + chunk.length : Math.min(target.end, chunkStart + chunk.length)) - chunkStart;
  if (target.firstByte === undefined) {
    while (from < to && WHITESPACE.has(chunk[from]!)) from++;
    if (from < to) target.firstByte = chunk[from];
  }
  return to > from ? chunk.subarray(from, to) : undefined;
}

/** Pushes streamed bytes, withholding trailing whitespace until more of the value follows. */
export function streamCapture(target: Capture, bytes: Buffer, push: (bytes: Buffer) => void): void {
  let last = bytes.length;
  while (last > 0 && WHITESPACE.has(bytes[last - 1]!)) last--;
  if (last === 0) {
    target.pendingWhitespace = Buffer.concat([target.pendingWhitespace ?? Buffer.alloc(0), bytes]);
    return;
  }
  if (target.pendingWhitespace) push(target.pendingWhitespace);
  push(bytes.subarray(0, last));
  target.pendingWhitespace = last < bytes.length ? Buffer.from(bytes.subarray(last)) : undefined;
}

export function trimEnd(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && WHITESPACE.has(bytes[end - 1]!)) end--;
  return bytes.subarray(0, end);
}
