/**
 * The Base58Check layer of a BIP32 extended key (78 bytes: 4 version + 1 depth + 4 parent
 * fingerprint + 4 child number + 32 chain code + 33 key, then a 4-byte double-SHA-256 checksum),
 * shared by the Bitcoin (zpub) and Ethereum (xpub) parsers, which word each refusal for their key.
 */
import { sha256 } from "@noble/hashes/sha2";
import { base58, base58check } from "@scure/base";

export const SERIALIZED_KEY_BYTES = 78;
const CHECKSUM_BYTES = 4;
/** A key is 111 characters; anything much longer is not a key and is not echoed into a message. */
const MAX_INPUT_CHARS = 200;

/** Why the text is no extended key, in the order the checks run. */
export type ExtendedKeyProblem =
  | { problem: "not_a_string" }
  | { problem: "empty" }
  | { problem: "whitespace" }
  | { problem: "too_long"; length: number }
  | { problem: "not_base58"; cause: unknown }
  | { problem: "wrong_length"; bytes: number }
  | { problem: "bad_checksum" };

/** The 78 serialized bytes, or the first problem found. */
export function decodeExtendedKey(input: unknown): { ok: true; payload: Uint8Array } | ({ ok: false } & ExtendedKeyProblem) {
  if (typeof input !== "string") return { ok: false, problem: "not_a_string" };
  if (input.length === 0) return { ok: false, problem: "empty" };
  // No trimming: a stored key must be byte-for-byte what the wallet exported, and a stray newline
  // usually means something else was pasted along with it.
  if (/\s/.test(input)) return { ok: false, problem: "whitespace" };
  if (input.length > MAX_INPUT_CHARS) return { ok: false, problem: "too_long", length: input.length };
  let raw: Uint8Array;
  try {
    raw = base58.decode(input);
  } catch (cause) {
    return { ok: false, problem: "not_base58", cause };
  }
  if (raw.length !== SERIALIZED_KEY_BYTES + CHECKSUM_BYTES) return { ok: false, problem: "wrong_length", bytes: raw.length };
  try {
    return { ok: true, payload: base58check(sha256).decode(input) };
  } catch {
    return { ok: false, problem: "bad_checksum" };
  }
}
