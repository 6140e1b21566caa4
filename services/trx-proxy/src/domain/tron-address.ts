/**
 * Tron addresses (research §1): 21 bytes `0x41` ‖ the last 20 bytes of keccak256(uncompressed public
 * key without 0x04), written as Base58Check (`T…`, 34 characters) or as hex (`41…`, 42 characters).
 * Base58Check is @scure/base's (double SHA-256 checksum), the maintained implementation TronWeb uses too.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { sha256 } from "@noble/hashes/sha2";
import { createBase58check, hex } from "@scure/base";

const base58check = createBase58check(sha256);
const ADDRESS_PREFIX = 0x41;
const ADDRESS_BYTES = 21;
const HEX_ADDRESS = /^41[0-9a-fA-F]{40}$/;

/** A valid Tron address in both forms. */
export interface TronAddress {
  /** Base58Check, `T…`. */
  base58: string;
  /** 21-byte hex with the 41 prefix, lowercase, no 0x. */
  hex: string;
}

/** Reads a Base58Check (`T…`) or hex (`41…`, optionally `0x41…`) address; undefined when it is neither. */
export function parseTronAddress(text: string): TronAddress | undefined {
  const candidate = text.startsWith("0x") ? text.slice(2) : text;
  if (HEX_ADDRESS.test(candidate)) {
    const bytes = hex.decode(candidate.toLowerCase());
    return { hex: candidate.toLowerCase(), base58: base58check.encode(bytes) };
  }
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text);
  } catch {
    return undefined;
  }
  if (bytes.length !== ADDRESS_BYTES || bytes[0] !== ADDRESS_PREFIX) return undefined;
  return { base58: text, hex: hex.encode(bytes) };
}

/** The address of a 32-byte secp256k1 private key. */
export function addressFromPrivateKey(privateKey: Uint8Array): TronAddress {
  const publicKey = secp256k1.getPublicKey(privateKey, false);
  const bytes = new Uint8Array(ADDRESS_BYTES);
  bytes[0] = ADDRESS_PREFIX;
  bytes.set(keccak_256(publicKey.subarray(1)).subarray(12), 1);
  return { hex: hex.encode(bytes), base58: base58check.encode(bytes) };
}

/** An ABI word (32 bytes, hex) holding the 20-byte EVM form of an address: TRC-20 call parameters. */
export function addressAbiWord(address: TronAddress): string {
  return address.hex.slice(2).padStart(64, "0");
}
