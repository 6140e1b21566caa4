/**
 * Tron addresses (research §1): 21 bytes `0x41` ‖ the last 20 bytes of keccak256(uncompressed public
 * key without 0x04), written as Base58Check (`T…`, 34 characters) or as hex (`41…`, 42 characters).
 * Blocks and `visible=false` answers carry the hex form; ABI words, event topics and `log[].address`
 * carry the 20-byte EVM form (no 41). Base58Check is @scure/base's (double SHA-256 checksum), the
 * maintained implementation TronWeb uses too.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { sha256 } from "@noble/hashes/sha2";
import { createBase58check, hex } from "@scure/base";

const base58check = createBase58check(sha256);

/** The first byte of every Tron address (mainnet and the test nets alike). */
export const TRON_ADDRESS_PREFIX = 0x41;
const ADDRESS_BYTES = 21;
/** 25 bytes (address and checksum) led by 0x41 always take 34 Base58 characters. */
const BASE58_LENGTH = 34;
const HEX_ADDRESS = /^41[0-9a-fA-F]{40}$/;
const EVM_HEX = /^(?:0x|41)?([0-9a-fA-F]{40})$/;

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
  if (HEX_ADDRESS.test(candidate)) return tronAddressFromBytes(hex.decode(candidate.toLowerCase()));
  return parseTronBase58(text);
}

/** Reads the Base58Check form (`T…`) only: a bad checksum, alphabet, length or version byte is undefined. */
export function parseTronBase58(text: string): TronAddress | undefined {
  // Checked first: Base58 decoding is quadratic in the length, and a request may carry any text.
  if (text.length !== BASE58_LENGTH) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text);
  } catch {
    return undefined;
  }
  if (!isTronAddressBytes(bytes)) return undefined;
  return { base58: text, hex: hex.encode(bytes) };
}

/** True when the bytes are a well-formed 21-byte Tron address. */
export function isTronAddressBytes(bytes: Uint8Array): boolean {
  return bytes.length === ADDRESS_BYTES && bytes[0] === TRON_ADDRESS_PREFIX;
}

/** Both forms of 21 address bytes; throws when they are no Tron address (a caller's bug, never input). */
export function tronAddressFromBytes(bytes: Uint8Array): TronAddress {
  if (!isTronAddressBytes(bytes)) throw new Error(`not a Tron address: ${hex.encode(bytes)}`);
  return { base58: base58check.encode(bytes), hex: hex.encode(bytes) };
}

/**
 * The address of a 20-byte EVM form: 40 hex digits as in log addresses and topics (a `0x` or `41`
 * prefix is tolerated, a topic's 24 leading zeros are not: slice the word first). Throws on other text.
 */
export function tronAddressFromEvmHex(text: string): TronAddress {
  const match = EVM_HEX.exec(text);
  if (!match) throw new Error(`not a 20-byte address: ${JSON.stringify(text)}`);
  return tronAddressFromBytes(hex.decode(`41${match[1]!.toLowerCase()}`));
}

/** The 20-byte EVM form of an address, 40 lower-case hex digits: the key blocks are matched by. */
export function tronEvmHex(address: TronAddress): string {
  return address.hex.slice(2);
}

/** An ABI word (32 bytes, hex) holding the 20-byte EVM form of an address: TRC-20 call parameters. */
export function addressAbiWord(address: TronAddress): string {
  return tronEvmHex(address).padStart(64, "0");
}

/** The address of a secp256k1 public key, uncompressed (65 bytes, 0x04…) or compressed (33 bytes). */
export function tronAddressFromPublicKey(publicKey: Uint8Array): TronAddress {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.Point.fromHex(hex.encode(publicKey)).toRawBytes(false);
  const bytes = new Uint8Array(ADDRESS_BYTES);
  bytes[0] = TRON_ADDRESS_PREFIX;
  bytes.set(keccak_256(uncompressed.subarray(1)).subarray(12), 1);
  return tronAddressFromBytes(bytes);
}

/** The address of a 32-byte secp256k1 private key. */
export function addressFromPrivateKey(privateKey: Uint8Array): TronAddress {
  return tronAddressFromPublicKey(secp256k1.getPublicKey(privateKey, false));
}
