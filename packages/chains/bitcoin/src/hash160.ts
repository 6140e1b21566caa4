/** RIPEMD-160 of SHA-256 (Bitcoin's hash160): key fingerprints (BIP32). */
import { ripemd160 } from "@noble/hashes/legacy";
import { sha256 } from "@noble/hashes/sha2";

export function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}
