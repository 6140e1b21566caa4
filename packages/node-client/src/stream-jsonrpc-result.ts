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
 */
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { Tokenizer, TokenType } from "@streamparser/json";

/** An error envelope is small; more than this is not an error object worth reading. */
const MAX_ERROR_BYTES = 64 * 1024;
/** A `null` result is held until the envelope ends, in case an error follows; nothing else is held. */
const MAX_HELD_RESULT_BYTES = 64;
const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NULL_FIRST_BYTE = 0x6e; // n

export interface StreamResultHandlers {
  /** The node's non-null `error` member, parsed → the error to throw. */
  refusal(error: unknown): Error;
  /** The body is not a usable answer (`what` says why). */
  badAnswer(what: string, cause?: unknown): Error;
}

/** Numbers are only skipped here: their text is kept, not parsed. */
class SkippingTokenizer extends Tokenizer {
  protected override parseNumber(text: string): number {
    return text as unknown as number;
  }
}

interface Capture {
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

/**
 * Resolves with the result's bytes as a stream once they begin; a `null` result (which a later
 * `error` member may contradict, as in bitcoind's `{"result":null,"error":{…}}`) once the answer
 * has ended. Rejects with `refusal` or `badAnswer` when the answer is not a result. After it
 * resolved, a broken remainder (cut body, a late error member) fails the returned stream.
 */
export function streamJsonRpcResult(body: Readable, handlers: StreamResultHandlers): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) => {
    let settled = false;
    const tokenizer = new SkippingTokenizer();
    // The envelope, from the tokens of depth 0 and 1.
    let depth = 0;
    let expectKey = false;
    let key: string | undefined;
    let valueNext: Capture | "other" | undefined;
    let open: Capture | undefined;
    let result: Capture | undefined;
    let error: Capture | undefined;
    let documentEnded = false;
    let failure: Error | undefined;
    // The byte scanner, over every byte: strings and bracket depth only.
    let inString = false;
    let escaped = false;
    let scanDepth = 0;
    /** Inside a member's object or array: its bytes are not tokenized. */
    let skipping = false;
    /** Bytes given to the tokenizer so far. */
    let fed = 0;
    /** The tokenizer's offsets + this = offsets in the body (constant while nothing is skipped). */
    let delta = 0;

    const fail = (cause: Error) => {
      failure ??= cause;
    };
    const endDocument = () => {
      depth = 0;
      documentEnded = true;
    };
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve(output);
    };
    const closeValue = (end: number) => {
      if (open) open.end = end;
      open = undefined;
    };
    /** A member's value is an object or array (its bytes never reach the tokenizer). */
    const containerStarts = () => {
      if (depth !== 1 || valueNext === undefined) return fail(handlers.badAnswer("not a JSON-RPC answer object"));
      if (valueNext !== "other") open = valueNext;
      valueNext = undefined;
    };
    tokenizer.onError = (cause) => fail(handlers.badAnswer(`not JSON (${cause.message})`, cause));
    tokenizer.onToken = ({ token, value, offset: fedOffset }) => {
      if (failure) return;
      const offset = fedOffset + delta;
      if (documentEnded) return fail(handlers.badAnswer("data after the JSON-RPC answer"));
      if (depth === 0) {
        if (token !== TokenType.LEFT_BRACE) return fail(handlers.badAnswer("not a JSON-RPC answer object"));
        depth = 1;
        expectKey = true;
        return;
      }
      if (expectKey) {
        expectKey = false;
        if (token === TokenType.STRING) key = value as string;
        else if (token === TokenType.RIGHT_BRACE) endDocument();
        else fail(handlers.badAnswer("not a JSON-RPC answer object"));
        return;
      }
      if (token === TokenType.COLON) {
        if (key === "result" || key === "error") {
          const capture: Capture = { key, start: offset + 1, isNull: false, held: [], heldBytes: 0, streaming: false };
          if (key === "result") result = capture;
          else error = capture;
          valueNext = capture;
        } else valueNext = "other";
        return;
      }
      if (valueNext !== undefined) {
        // A primitive value (containers never reach the tokenizer).
        if (valueNext !== "other") {
          valueNext.isNull = token === TokenType.NULL;
          open = valueNext;
        }
        valueNext = undefined;
        return;
      }
      // After a value: `,` or `}` ends a primitive (a container ended at its closer).
      closeValue(offset);
      if (token === TokenType.COMMA) expectKey = true;
      else if (token === TokenType.RIGHT_BRACE) endDocument();
      else fail(handlers.badAnswer("not a JSON-RPC answer object"));
    };

    /** Tokenizes the envelope's bytes `chunk[from, to)`. */
    const feed = (chunk: Buffer, chunkStart: number, from: number, to: number) => {
      if (to <= from || failure) return;
      delta = chunkStart + from - fed;
      fed += to - from;
      tokenizer.write(chunk.subarray(from, to));
    };
    /** Runs the byte scanner over a chunk: envelope bytes to the tokenizer, members' containers skipped. */
    const scan = (chunk: Buffer, chunkStart: number) => {
      let envelopeFrom = skipping ? chunk.length : 0;
      for (let i = 0; i < chunk.length && !failure; i++) {
        if (inString) {
          // Jump to the next quote; it ends the string unless an odd run of backslashes precedes it.
          const quote = chunk.indexOf(QUOTE, i);
          if (quote === -1) {
            escaped = trailingEscape(chunk, i, chunk.length, escaped);
            break;
          }
          const escapedQuote = trailingEscape(chunk, i, quote, escaped);
          escaped = false;
          i = quote;
          if (!escapedQuote) inString = false;
          continue;
        }
        const byte = chunk[i]!;
        if (byte === QUOTE) inString = true;
        else if (byte === 0x7b || byte === 0x5b) {
          if (++scanDepth === 2) {
            feed(chunk, chunkStart, envelopeFrom, i);
            containerStarts();
            skipping = true;
          }
        } else if ((byte === 0x7d || byte === 0x5d) && --scanDepth === 1 && skipping) {
          skipping = false;
          closeValue(chunkStart + i + 1);
          envelopeFrom = i + 1;
        }
      }
      if (!skipping) feed(chunk, chunkStart, envelopeFrom, chunk.length);
    };

    const hold = (target: Capture, bytes: Buffer, limit: number) => {
      target.heldBytes += bytes.length;
      if (target.heldBytes > limit)
        return fail(handlers.badAnswer(`${target.key} member larger than ${limit} bytes where a small one was expected`));
      target.held.push(Buffer.from(bytes));
    };
    /** This chunk's bytes of `target`, leading whitespace skipped. */
    const slice = (target: Capture | undefined, chunk: Buffer, chunkStart: number): Buffer | undefined => {
      if (!target) return undefined;
      let from = Math.max(target.start, chunkStart) - chunkStart;
      const to = (target.end === undefined ? chunkStart + chunk.length : Math.min(target.end, chunkStart + chunk.length)) - chunkStart;
      if (target.firstByte === undefined) {
        while (from < to && WHITESPACE.has(chunk[from]!)) from++;
        if (from < to) target.firstByte = chunk[from];
      }
      return to > from ? chunk.subarray(from, to) : undefined;
    };
    /** Pushes streamed bytes, withholding trailing whitespace until more of the value follows. */
    const stream = (target: Capture, bytes: Buffer, push: (bytes: Buffer) => void) => {
      let last = bytes.length;
      while (last > 0 && WHITESPACE.has(bytes[last - 1]!)) last--;
      if (last === 0) {
        target.pendingWhitespace = Buffer.concat([target.pendingWhitespace ?? Buffer.alloc(0), bytes]);
        return;
      }
      if (target.pendingWhitespace) push(target.pendingWhitespace);
      push(bytes.subarray(0, last));
      target.pendingWhitespace = last < bytes.length ? Buffer.from(bytes.subarray(last)) : undefined;
    };
    const refused = () => error !== undefined && !error.isNull;

    let position = 0;
    const output = new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        const chunkStart = position;
        position += chunk.length;
        scan(chunk, chunkStart);
        if (failure) return done(failure);
        const resultBytes = slice(result, chunk, chunkStart);
        if (resultBytes && result) {
          // Anything but null streams at once, unless a real error came first; null waits for the end.
          if (!result.streaming && result.firstByte !== NULL_FIRST_BYTE && !refused()) result.streaming = true;
          if (result.streaming) {
            stream(result, resultBytes, (bytes) => this.push(bytes));
            settle();
          } else if (!refused()) hold(result, resultBytes, MAX_HELD_RESULT_BYTES);
        }
        const errorBytes = slice(error, chunk, chunkStart);
        if (errorBytes && error) hold(error, errorBytes, MAX_ERROR_BYTES);
        done(failure);
      },
      flush(done: TransformCallback) {
        if (!failure && !documentEnded) fail(handlers.badAnswer("the answer ended early"));
        if (!failure && refused() && error) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(error.held).toString("utf8"));
          } catch (cause) {
            fail(handlers.badAnswer("an unreadable error member", cause));
          }
          if (!failure) fail(handlers.refusal(parsed));
        }
        if (!failure && !result) fail(handlers.badAnswer("no result member"));
        if (failure) return done(failure);
        if (result && !result.streaming) this.push(trimEnd(Buffer.concat(result.held)));
        settle();
        done();
      },
    });
    output.on("error", (cause) => {
      if (settled) return;
      settled = true;
      reject(cause);
    });
    body.on("error", (cause) => output.destroy(failure ?? handlers.badAnswer("the node's body failed", cause)));
    output.on("close", () => {
      if (!body.destroyed) body.destroy();
    });
    body.pipe(output);
  });
}

/** Whether the byte after `chunk[from, to)` is escaped: an odd run of backslashes ends the range (`escaped`: the state carried in at `from`). */
function trailingEscape(chunk: Buffer, from: number, to: number, escaped: boolean): boolean {
  let run = 0;
  while (to - run - 1 >= from && chunk[to - run - 1] === BACKSLASH) run++;
  // The whole range is backslashes: the carried-in state continues the run.
  if (run === to - from) return (run + (escaped ? 1 : 0)) % 2 === 1;
  return run % 2 === 1;
}

function trimEnd(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && WHITESPACE.has(bytes[end - 1]!)) end--;
  return bytes.subarray(0, end);
}
