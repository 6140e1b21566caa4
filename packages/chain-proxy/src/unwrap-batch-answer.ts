/**
 * A node's answer to a batch, read as it arrives: the bytes between the brackets of its array,
 * passed on piece by piece and never held whole, so the answers of several requests can be joined
 * into one array. An answer that is not an array (the node refused the batch with one error object)
 * is read whole, up to a bound.
 */

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const SPACE = 0x20;
const WHITESPACE = new Set([SPACE, 0x09, 0x0a, 0x0d]);
const isBlank = (byte: number) => WHITESPACE.has(byte);
/** Held spaces are given back from this, a slice at a time. */
const SPACES = Buffer.alloc(16 * 1024, SPACE);

/** An answer that is not an array is one error object, small: it is read this far and no further. */
export const MAX_NOT_AN_ARRAY_BYTES = 64 * 1024;

export type BatchAnswerPiece =
  /** Bytes of the array's elements, in order, as the node wrote them; the first piece starts with an element's first byte. */
  | { kind: "elements"; bytes: Buffer }
  /** The answer when it is not an array (cut at MAX_NOT_AN_ARRAY_BYTES): the only piece. */
  | { kind: "not-an-array"; text: string };

export interface UnwrapBatchAnswerOptions {
  /** The error to throw for an answer that starts as an array and does not end as one. */
  badAnswer: (what: string) => Error;
}

/**
 * Yields the pieces of `body` (a node's batch answer). An empty array and a blank answer yield
 * nothing. Throws the body's own error, or `badAnswer` when the array is not closed at the end.
 *
 * The element bytes are passed on unchanged, with one exception that JSON allows: the blanks
 * between a `]` and what follows it may be dropped when they hold a tab or line break (which a
 * string cannot), since the `]` is then no string's. Only the last `]` seen is held back, until
 * something that is not blank shows it was an element's and not the array's end; the blanks after
 * it are counted, not kept, so nothing the node writes makes this hold more than a few bytes.
 */
export async function* unwrapBatchAnswer(
  body: AsyncIterable<Buffer | string>,
  { badAnswer }: UnwrapBatchAnswerOptions,
): AsyncGenerator<BatchAnswerPiece> {
  /** Until the first byte that is not blank: whether the answer is an array is not known yet. */
  let opened = false;
  let notAnArray: Buffer[] | undefined;
  let notAnArrayBytes = 0;
  /** Whether an element byte has been yielded: blanks before the first one are dropped. */
  let started = false;
  /** The last byte seen that is not blank was a `]`: the array's end if nothing else follows. */
  let heldClose = false;
  /** The spaces after the held `]`, to give back if it was an element's (they may be a string's). */
  let heldSpaces = 0;
  /** A tab or line break followed the held `]`: it was no string's, and the blanks after it are insignificant. */
  let heldOtherBlank = false;

  const hold = (blanks: Buffer) => {
    for (const byte of blanks) {
      if (byte === SPACE) heldSpaces++;
      else heldOtherBlank = true;
    }
  };

  for await (const piece of body) {
    let bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
    if (notAnArray) {
      notAnArray.push(bytes);
      notAnArrayBytes += bytes.length;
      if (notAnArrayBytes >= MAX_NOT_AN_ARRAY_BYTES) break;
      continue;
    }
    if (!opened) {
      const first = bytes.findIndex((byte) => !isBlank(byte));
      if (first === -1) continue;
      opened = true;
      if (bytes[first] !== OPEN) {
        notAnArray = [bytes.subarray(first)];
        notAnArrayBytes = bytes.length - first;
        if (notAnArrayBytes >= MAX_NOT_AN_ARRAY_BYTES) break;
        continue;
      }
      bytes = bytes.subarray(first + 1);
    }
    const last = bytes.findLastIndex((byte) => !isBlank(byte));
    if (last === -1) {
      if (heldClose) hold(bytes);
      // Otherwise blanks before the first element (dropped) or after an element's byte (passed on).
      else if (started) yield { kind: "elements", bytes };
      continue;
    }
    // Something follows the held `]`: it was an element's.
    if (heldClose) {
      yield* elements(Buffer.from([CLOSE]));
      if (!heldOtherBlank) for (let left = heldSpaces; left > 0; left -= SPACES.length) yield* elements(SPACES.subarray(0, left));
      heldClose = false;
    }
    if (bytes[last] === CLOSE) {
      yield* elements(bytes.subarray(0, last));
      heldClose = true;
      heldSpaces = 0;
      heldOtherBlank = false;
      hold(bytes.subarray(last + 1));
    } else {
      yield* elements(bytes);
    }
  }

  if (notAnArray) {
    yield { kind: "not-an-array", text: Buffer.concat(notAnArray).subarray(0, MAX_NOT_AN_ARRAY_BYTES).toString("utf8") };
    return;
  }
  if (opened && !heldClose) throw badAnswer("the batch answer ended before its closing bracket");

  function* elements(bytes: Buffer): Generator<BatchAnswerPiece> {
    if (!started) {
      const first = bytes.findIndex((byte) => !isBlank(byte));
      if (first === -1) return;
      bytes = bytes.subarray(first);
      started = true;
    }
    if (bytes.length > 0) yield { kind: "elements", bytes };
  }
}
