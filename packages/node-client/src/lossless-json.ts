/**
 * JSON with numbers kept as the node wrote them. bitcoind writes amounts as decimal numbers
 * (`0.00000050`); a double turns 50 satoshis into `5e-7` and large values lose digits. Numbers
 * parse to JsonNumber (their text) and are written back unchanged.
 */
import { Tokenizer, TokenParser } from "@streamparser/json";

/** A JSON number's exact text, e.g. "0.00000050". */
export class JsonNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  /** For logs and tests; the exact value is `text`. */
  toString(): string {
    return this.text;
  }
}

/** A tokenizer whose number tokens carry their text as a JsonNumber. */
class LosslessTokenizer extends Tokenizer {
  protected override parseNumber(numberText: string): number {
    return new JsonNumber(numberText) as unknown as number;
  }
}

/** Parses JSON text; every number becomes a JsonNumber. Throws SyntaxError on invalid JSON. */
export function parseLosslessJson(text: string): unknown {
  const tokenizer = new LosslessTokenizer();
  const parser = new TokenParser({ paths: ["$"], keepStack: false });
  let root: unknown;
  let found = false;
  let failure: Error | undefined;
  tokenizer.onToken = (token) => parser.write(token);
  tokenizer.onError = (error) => (failure ??= error);
  parser.onError = (error) => (failure ??= error);
  parser.onValue = ({ value }) => {
    root = value;
    found = true;
  };
  tokenizer.write(text);
  if (!failure) tokenizer.end();
  if (failure || !found) throw new SyntaxError(`Invalid JSON: ${failure?.message ?? "no value"}`);
  return root;
}

/** JSON.stringify for values from parseLosslessJson: JsonNumbers are written as their text. */
export function stringifyLosslessJson(value: unknown): string {
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map((element) => stringifyLosslessJson(element ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${stringifyLosslessJson(member)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
