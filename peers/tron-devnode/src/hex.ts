/** Hex helpers that never throw on user input: invalid text yields `undefined`. */

const HEX_PATTERN = /^([0-9a-fA-F]{2})*$/;

/** Lowercase hex of bytes, no `0x`. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** Bytes of an even-length hex string (case-insensitive, optional `0x`), or `undefined` if it is not hex. */
export function parseHex(text: string): Uint8Array | undefined {
  const body = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (!HEX_PATTERN.test(body)) return undefined;
  return new Uint8Array(Buffer.from(body, "hex"));
}

/** Hex of the UTF-8 bytes of a string (java-tron's rendering of name/message bytes when `visible` is false). */
export function utf8ToHex(text: string): string {
  return Buffer.from(text, "utf8").toString("hex");
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Parses a 64-hex txID or blockID; undefined otherwise. */
export function parseHash(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const bytes = parseHex(text);
  return bytes && bytes.length === 32 ? toHex(bytes) : undefined;
}
