/**
 * The envelope of a JSON-RPC answer, read from its own tokens (depth 0 and 1): where its `result`
 * and `error` members are, whether it is one complete object. The bytes of a member's object or
 * array never reach the tokenizer (scan-envelope-bytes.ts skips them).
 */
import { Tokenizer, TokenType, type ParsedTokenInfo } from "@streamparser/json";
import type { StreamResultHandlers } from "../stream-jsonrpc-result.ts";
import { createCapture, type Capture } from "./capture.ts";

/** Numbers are only skipped here: their text is kept, not parsed. */
class SkippingTokenizer extends Tokenizer {
  protected override parseNumber(text: string): number {
    return text as unknown as number;
  }
}

/** The state of reading one answer: the envelope's, then the byte scanner's. */
export interface EnvelopeReader {
  readonly handlers: StreamResultHandlers;
  readonly tokenizer: Tokenizer;
  // The envelope, from the tokens of depth 0 and 1.
  depth: number;
  expectKey: boolean;
  key: string | undefined;
  valueNext: Capture | "other" | undefined;
  open: Capture | undefined;
  result: Capture | undefined;
  error: Capture | undefined;
  documentEnded: boolean;
  failure: Error | undefined;
  // The byte scanner, over every byte: strings and bracket depth only.
  inString: boolean;
  escaped: boolean;
  scanDepth: number;
  /** Inside a member's object or array: its bytes are not tokenized. */
  skipping: boolean;
  /** Bytes given to the tokenizer so far. */
  fed: number;
  /** The tokenizer's offsets + this = offsets in the body (constant while nothing is skipped). */
  delta: number;
}

export function createEnvelopeReader(handlers: StreamResultHandlers): EnvelopeReader {
  const reader: EnvelopeReader = {
    handlers,
    tokenizer: new SkippingTokenizer(),
    depth: 0,
    expectKey: false,
    key: undefined,
    valueNext: undefined,
    open: undefined,
    result: undefined,
    error: undefined,
    documentEnded: false,
    failure: undefined,
    inString: false,
    escaped: false,
    scanDepth: 0,
    skipping: false,
    fed: 0,
    delta: 0,
  };
  reader.tokenizer.onError = (cause) => fail(reader, handlers.badAnswer(`not JSON (${cause.message})`, cause));
  reader.tokenizer.onToken = (parsedToken) => readEnvelopeToken(reader, parsedToken);
  return reader;
}

/** The first failure is the one reported. */
export function fail(reader: EnvelopeReader, cause: Error): void {
  reader.failure ??= cause;
}

/** The member value under way ends at body offset `end`. */
export function closeValue(reader: EnvelopeReader, end: number): void {
  if (reader.open) reader.open.end = end;
  reader.open = undefined;
}

/** A member's value is an object or array (its bytes never reach the tokenizer). */
export function containerStarts(reader: EnvelopeReader): void {
  if (reader.depth !== 1 || reader.valueNext === undefined) return fail(reader, reader.handlers.badAnswer("not a JSON-RPC answer object"));
  if (reader.valueNext !== "other") reader.open = reader.valueNext;
  reader.valueNext = undefined;
}

function endDocument(reader: EnvelopeReader): void {
  reader.depth = 0;
  reader.documentEnded = true;
}

/** One token of the envelope: its opening brace, a key, a colon, a primitive value, a `,` or the closing `}`. */
function readEnvelopeToken(reader: EnvelopeReader, { token, value, offset: fedOffset }: ParsedTokenInfo): void {
  const { handlers } = reader;
  if (reader.failure) return;
  const offset = fedOffset + reader.delta;
  if (reader.documentEnded) return fail(reader, handlers.badAnswer("data after the JSON-RPC answer"));
  if (reader.depth === 0) {
    if (token !== TokenType.LEFT_BRACE) return fail(reader, handlers.badAnswer("not a JSON-RPC answer object"));
    reader.depth = 1;
    reader.expectKey = true;
    return;
  }
  if (reader.expectKey) {
    reader.expectKey = false;
    if (token === TokenType.STRING) reader.key = value as string;
    else if (token === TokenType.RIGHT_BRACE) endDocument(reader);
    else fail(reader, handlers.badAnswer("not a JSON-RPC answer object"));
    return;
  }
  if (token === TokenType.COLON) {
    const { key } = reader;
    if (key === "result" || key === "error") {
      const capture = createCapture(key, offset + 1);
      if (key === "result") reader.result = capture;
      else reader.error = capture;
      reader.valueNext = capture;
    } else reader.valueNext = "other";
    return;
  }
  if (reader.valueNext !== undefined) {
    // A primitive value (containers never reach the tokenizer).
    if (reader.valueNext !== "other") {
      reader.valueNext.isNull = token === TokenType.NULL;
      reader.open = reader.valueNext;
    }
    reader.valueNext = undefined;
    return;
  }
  // After a value: `,` or `}` ends a primitive (a container ended at its closer).
  closeValue(reader, offset);
  if (token === TokenType.COMMA) reader.expectKey = true;
  else if (token === TokenType.RIGHT_BRACE) endDocument(reader);
  else fail(reader, handlers.badAnswer("not a JSON-RPC answer object"));
}
