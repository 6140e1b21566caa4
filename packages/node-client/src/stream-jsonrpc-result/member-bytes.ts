/**
 * What becomes of the `result` and `error` members' bytes: a result streams as it arrives, unless
 * it is `null` (held until the end, a later error may contradict it) or a real error came first;
 * an error is held whole and thrown as the node's refusal once the answer has ended.
 */
import { sliceCapture, streamCapture, trimEnd, type Capture } from "./capture.ts";
import { fail, type EnvelopeReader } from "./envelope-reader.ts";

/** An error envelope is small; more than this is not an error object worth reading. */
const MAX_ERROR_BYTES = 64 * 1024;
/** A `null` result is held until the envelope ends, in case an error follows; nothing else is held. */
const MAX_HELD_RESULT_BYTES = 64;
const NULL_FIRST_BYTE = 0x6e; // n

/** This chunk's bytes of the members: the result's pushed (then `streaming` is called) or held, the error's held. */
export function takeMemberBytes(
  reader: EnvelopeReader,
  chunk: Buffer,
  chunkStart: number,
  push: (bytes: Buffer) => void,
  streaming: () => void,
): void {
  const { result } = reader;
  const resultBytes = sliceCapture(result, chunk, chunkStart);
  if (resultBytes && result) {
    // Anything but null streams at once, unless a real error came first; null waits for the end.
    if (!result.streaming && result.firstByte !== NULL_FIRST_BYTE && !refused(reader)) result.streaming = true;
    if (result.streaming) {
      streamCapture(result, resultBytes, push);
      streaming();
    } else if (!refused(reader)) hold(reader, result, resultBytes, MAX_HELD_RESULT_BYTES);
  }
  const { error } = reader;
  const errorBytes = sliceCapture(error, chunk, chunkStart);
  if (errorBytes && error) hold(reader, error, errorBytes, MAX_ERROR_BYTES);
}

/** At the end of the body: a cut answer, the node's refusal or a missing result becomes the reader's failure. */
export function finishAnswer(reader: EnvelopeReader): void {
  const { handlers, error } = reader;
  if (!reader.failure && !reader.documentEnded) fail(reader, handlers.badAnswer("the answer ended early"));
  if (!reader.failure && refused(reader) && error) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(error.held).toString("utf8"));
    } catch (cause) {
      fail(reader, handlers.badAnswer("an unreadable error member", cause));
    }
    if (!reader.failure) fail(reader, handlers.refusal(parsed));
  }
  if (!reader.failure && !reader.result) fail(reader, handlers.badAnswer("no result member"));
}

/** The held (`null`) result, once the answer has ended; undefined when the result streamed. */
export function heldResult(reader: EnvelopeReader): Buffer | undefined {
  const { result } = reader;
  return result && !result.streaming ? trimEnd(Buffer.concat(result.held)) : undefined;
}

/** The answer carries a non-null `error`: the node's refusal. */
function refused(reader: EnvelopeReader): boolean {
  return reader.error !== undefined && !reader.error.isNull;
}

function hold(reader: EnvelopeReader, target: Capture, bytes: Buffer, limit: number): void {
  target.heldBytes += bytes.length;
  if (target.heldBytes > limit)
    return fail(reader, reader.handlers.badAnswer(`${target.key} member larger than ${limit} bytes where a small one was expected`));
  target.held.push(Buffer.from(bytes));
}
