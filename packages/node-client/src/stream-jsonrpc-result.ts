/**
 * Cuts the `result` member out of a JSON-RPC answer while it streams, whatever the key order:
 * bitcoind writes `{"result":…,"error":null,"id":1}`, geth and Hardhat
 * `{"jsonrpc":"2.0","id":1,"result":…}`. A tokenizer (@streamparser/json) follows the envelope;
 * the bytes of a container result pass through as views of the node's chunks, never assembled,
 * so a megabytes-large block costs no more memory than a few chunks.
 *
 * Invariants: only the top-level members `result` and `error` are looked at; a non-null `error`
 * is the node's refusal; a body that is not one complete JSON object is an error of the stream.
 */
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { Tokenizer, TokenType } from "@streamparser/json";

/** An error envelope is small; more than this is not an error object worth reading. */
const MAX_ERROR_BYTES = 64 * 1024;
/** A primitive result (a hash, a count, null) is held until the envelope ends, in case an error follows. */
const MAX_PRIMITIVE_BYTES = 64 * 1024;
const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);

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
  start: number;
  end?: number;
  container: boolean;
  isNull: boolean;
  /** Held bytes (errors and primitive results). */
  held: Buffer[];
  heldBytes: number;
}

/**
 * Resolves with the result's bytes as a stream once they begin (a container) or once the answer
 * has ended (a primitive); rejects with `refusal` or `badAnswer` when the answer is not a result.
 * After it resolved, a broken remainder (cut body, a late error member) fails the returned stream.
 */
export function streamJsonRpcResult(body: Readable, handlers: StreamResultHandlers): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) => {
    let settled = false;
    const tokenizer = new SkippingTokenizer();
    let depth = 0;
    let expectKey = false;
    let key: string | undefined;
    let valueNext = false;
    let capture: Capture | undefined;
    let result: Capture | undefined;
    let error: Capture | undefined;
    let documentEnded = false;
    let failure: Error | undefined;

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
    const finishCapture = (end: number) => {
      if (capture) capture.end = end;
      capture = undefined;
    };
    tokenizer.onError = (cause) => fail(handlers.badAnswer(`not JSON (${cause.message})`, cause));
    tokenizer.onToken = ({ token, value, offset }) => {
      if (failure) return;
      if (documentEnded) return fail(handlers.badAnswer("data after the JSON-RPC answer"));
      if (depth === 0) {
        if (token !== TokenType.LEFT_BRACE) return fail(handlers.badAnswer("not a JSON-RPC answer object"));
        depth = 1;
        expectKey = true;
        return;
      }
      if (depth === 1) {
        if (expectKey) {
          expectKey = false;
          if (token === TokenType.STRING) key = value as string;
          else if (token === TokenType.RIGHT_BRACE) endDocument();
          return;
        }
        if (token === TokenType.COLON) {
          valueNext = true;
          return;
        }
        if (valueNext) {
          valueNext = false;
          const container = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
          if (key === "result" || key === "error") {
            capture = { key, start: offset, container, isNull: token === TokenType.NULL, held: [], heldBytes: 0 };
            if (key === "result") result = capture;
            else error = capture;
          }
          if (container) depth++;
          return;
        }
        // After a primitive value: `,` or `}` ends it (trailing whitespace is trimmed later).
        if (capture && !capture.container) finishCapture(offset);
        if (token === TokenType.COMMA) expectKey = true;
        if (token === TokenType.RIGHT_BRACE) endDocument();
        return;
      }
      if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) depth++;
      else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
        depth--;
        if (depth === 1) finishCapture(offset + 1);
      }
    };

    let position = 0;
    const hold = (target: Capture, bytes: Buffer, limit: number) => {
      target.heldBytes += bytes.length;
      if (target.heldBytes > limit) return fail(handlers.badAnswer(`${target.key} member larger than ${limit} bytes where a small one was expected`));
      target.held.push(Buffer.from(bytes));
    };
    const slice = (target: Capture | undefined, chunk: Buffer, chunkStart: number): Buffer | undefined => {
      if (!target || target.start >= chunkStart + chunk.length) return undefined;
      const from = Math.max(target.start, chunkStart) - chunkStart;
      const to = (target.end === undefined ? chunkStart + chunk.length : Math.min(target.end, chunkStart + chunk.length)) - chunkStart;
      return to > from ? chunk.subarray(from, to) : undefined;
    };

    const output = new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        const chunkStart = position;
        position += chunk.length;
        tokenizer.write(chunk);
        if (failure) return done(failure);
        const resultBytes = slice(result, chunk, chunkStart);
        if (resultBytes && result) {
          // A container streams unless a real error came first; a primitive waits for the end.
          if (result.container && !(error && !error.isNull)) {
            this.push(resultBytes);
            settle();
          } else hold(result, resultBytes, MAX_PRIMITIVE_BYTES);
        }
        const errorBytes = error && !error.isNull ? slice(error, chunk, chunkStart) : undefined;
        if (errorBytes && error) hold(error, errorBytes, MAX_ERROR_BYTES);
        done(failure);
      },
      flush(done: TransformCallback) {
        if (!failure && !documentEnded) fail(handlers.badAnswer("the answer ended early"));
        if (!failure && error && !error.isNull) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(error.held).toString("utf8"));
          } catch (cause) {
            parsed = undefined;
            fail(handlers.badAnswer("an unreadable error member", cause));
          }
          if (!failure) fail(handlers.refusal(parsed));
        }
        if (!failure && !result) fail(handlers.badAnswer("no result member"));
        if (failure) return done(failure);
        if (result && !(result.container && settled)) this.push(trimEnd(Buffer.concat(result.held)));
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

function trimEnd(bytes: Buffer): Buffer {
  let end = bytes.length;
  while (end > 0 && WHITESPACE.has(bytes[end - 1]!)) end--;
  return bytes.subarray(0, end);
}
