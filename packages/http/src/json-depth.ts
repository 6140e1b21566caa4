/**
 * Nesting depth of a JSON text, bounded before it is parsed: a body of 200,000 nested arrays parses
 * fine but overflows the stack of whatever walks it next (validation, logging, re-encoding).
 */
import { ChaingateError } from "@chaingate/errors";

/** No request of this API nests deeper than a handful of levels; JSON-RPC params a few more. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

export class JsonTooDeepError extends ChaingateError {
  override name = "JsonTooDeepError" as const;
  /** body-parser keeps a 4xx status of an error thrown in `verify`. */
  readonly status = 400;
  constructor(maxDepth: number) {
    super("json_too_deep", `The request body nests JSON more than ${maxDepth} levels deep.`);
  }
}

/** Throws JsonTooDeepError when `text` nests arrays/objects deeper than `maxDepth`; a linear scan, strings skipped. */
export function assertJsonDepth(text: Uint8Array, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (OPENERS.has(byte)) {
      if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth);
    } else if (CLOSERS.has(byte)) depth--;
  }
}
