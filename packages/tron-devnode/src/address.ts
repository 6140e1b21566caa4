/** Tron addresses: 21 bytes (`0x41` + last 20 bytes of keccak256(pubkey)), Base58Check `T…` or hex `41…`. */
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { sha256 } from "@noble/hashes/sha2";
import { createBase58check } from "@scure/base";
import { parseHex, toHex } from "./hex.ts";

/** The first byte of every mainnet-style Tron address. */
export const ADDRESS_PREFIX = 0x41;
const ADDRESS_LENGTH = 21;
const EVM_ADDRESS_LENGTH = 20;

const base58check = createBase58check(sha256);

/** Base58Check text (`T…`) of a 21-byte address. */
export function addressToBase58(address: Uint8Array): string {
  return base58check.encode(address);
}

/** True when the bytes are a well-formed 21-byte Tron address. */
export function isValidAddress(address: Uint8Array): boolean {
  return address.length === ADDRESS_LENGTH && address[0] === ADDRESS_PREFIX;
}

/** Decodes a `T…` address; `undefined` on a bad checksum, alphabet or length. */
export function addressFromBase58(text: string): Uint8Array | undefined {
  try {
    const bytes = base58check.decode(text);
    return isValidAddress(bytes) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses a request address the way java-tron does: hex (`41…`) when `visible` is false, Base58 when true.
 * Returns `undefined` for anything else, including the other form.
 */
export function parseAddress(text: unknown, visible: boolean): Uint8Array | undefined {
  if (typeof text !== "string") return undefined;
  if (visible) return addressFromBase58(text);
  const bytes = parseHex(text);
  return bytes && isValidAddress(bytes) ? bytes : undefined;
}

/** Accepts either form (hex or Base58), for the places where java-tron does not depend on `visible`. */
export function parseAnyAddress(text: unknown): Uint8Array | undefined {
  return parseAddress(text, false) ?? parseAddress(text, true);
}

/** The Tron address of an uncompressed (65-byte, 0x04…) or compressed secp256k1 public key. */
export function addressFromPublicKey(publicKey: Uint8Array): Uint8Array {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.Point.fromHex(toHex(publicKey)).toRawBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  const address = new Uint8Array(ADDRESS_LENGTH);
  address[0] = ADDRESS_PREFIX;
  address.set(hash.subarray(hash.length - EVM_ADDRESS_LENGTH), 1);
  return address;
}

/** The Tron address controlled by a private key (32-byte hex). */
export function addressFromPrivateKey(privateKeyHex: string): Uint8Array {
  return addressFromPublicKey(secp256k1.getPublicKey(privateKeyHex, false));
}

/** 20-byte EVM form (no `41`), as used in ABI words, event topics and `log[].address`. */
export function toEvmAddress(address: Uint8Array): Uint8Array {
  return address.subarray(1);
}

/** 21-byte Tron form of a 20-byte EVM address. */
export function fromEvmAddress(evm: Uint8Array): Uint8Array {
  const address = new Uint8Array(ADDRESS_LENGTH);
  address[0] = ADDRESS_PREFIX;
  address.set(evm, 1);
  return address;
}
