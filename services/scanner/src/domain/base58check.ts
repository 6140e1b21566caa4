/** Base58Check (Bitcoin alphabet, 4-byte double-SHA-256 checksum), as Tron addresses use it. */
import { createHash } from "node:crypto";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Map([...ALPHABET].map((character, index) => [character, index]));

function sha256(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}

export function base58CheckEncode(payload: Uint8Array): string {
  const bytes = Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]);
  let value = BigInt(`0x${bytes.toString("hex") || "0"}`);
  let text = "";
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** The payload, or undefined when `text` is not Base58 or its checksum does not match. */
export function base58CheckDecode(text: string): Buffer | undefined {
  let value = 0n;
  for (const character of text) {
    const digit = INDEX.get(character);
    if (digit === undefined) return undefined;
    value = value * 58n + BigInt(digit);
  }
  let hex = value === 0n ? "" : value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const leadingZeros = text.length - text.replace(/^1+/, "").length;
  const bytes = Buffer.concat([Buffer.alloc(leadingZeros), Buffer.from(hex, "hex")]);
  if (bytes.length < 5) return undefined;
  const payload = bytes.subarray(0, bytes.length - 4);
  if (!sha256(sha256(payload)).subarray(0, 4).equals(bytes.subarray(bytes.length - 4))) return undefined;
  return payload;
}
