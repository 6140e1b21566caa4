/**
 * The byte scanner, over every byte of the answer: strings and bracket depth only. The envelope's
 * bytes go to the tokenizer; the insides of its members' objects and arrays are skipped, which is
 * many times faster than tokenizing them.
 */
import { closeValue, containerStarts, type EnvelopeReader } from "./envelope-reader.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Runs the byte scanner over a chunk: envelope bytes to the tokenizer, members' containers skipped. */
export function scanEnvelopeBytes(reader: EnvelopeReader, chunk: Buffer, chunkStart: number): void {
  let envelopeFrom = reader.skipping ? chunk.length : 0;
  for (let i = 0; i < chunk.length && !reader.failure; i++) {
    if (reader.inString) {
      // Jump to the next quote; it ends the string unless an odd run of backslashes precedes it.
      const quote = chunk.indexOf(QUOTE, i);
      if (quote === -1) {
        reader.escaped = trailingEscape(chunk, i, chunk.length, reader.escaped);
        break;
      }
      const escapedQuote = trailingEscape(chunk, i, quote, reader.escaped);
      reader.escaped = false;
      i = quote;
      if (!escapedQuote) reader.inString = false;
      continue;
    }
    const byte = chunk[i]!;
    if (byte === QUOTE) reader.inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++reader.scanDepth === 2) {
        feed(reader, chunk, chunkStart, envelopeFrom, i);
        containerStarts(reader);
        reader.skipping = true;
      }
    } else if ((byte === 0x7d || byte === 0x5d) && --reader.scanDepth === 1 && reader.skipping) {
      reader.skipping = false;
      closeValue(reader, chunkStart + i + 1);
      envelopeFrom = i + 1;
    }
  }
  if (!reader.skipping) feed(reader, chunk, chunkStart, envelopeFrom, chunk.length);
}

/** Tokenizes the envelope's bytes `chunk[from, to)`. */
function feed(reader: EnvelopeReader, chunk: Buffer, chunkStart: number, from: number, to: number): void {
  if (to <= from || reader.failure) return;
  reader.delta = chunkStart + from - reader.fed;
  reader.fed += to - from;
  reader.tokenizer.write(chunk.subarray(from, to));
}

/** Whether the byte after `chunk[from, to)` is escaped: an odd run of backslashes ends the range (`escaped`: the state carried in at `from`). */
function trailingEscape(chunk: Buffer, from: number, to: number, escaped: boolean): boolean {
  let run = 0;
  while (to - run - 1 >= from && chunk[to - run - 1] === BACKSLASH) run++;
  // The whole range is backslashes: the carried-in state continues the run.
  if (run === to - from) return (run + (escaped ? 1 : 0)) % 2 === 1;
  return run % 2 === 1;
}
