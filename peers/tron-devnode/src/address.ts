/**
 * Tron addresses as the simulator handles them: 21 bytes (`0x41` + last 20 bytes of
 * keccak256(pubkey)). The encoding and derivation are @chaingate/tron's; what is the simulator's
 * own is java-tron's request rule (`visible` picks the form) and the byte-level view its ledger keeps.
 */
import {
  TRON_ADDRESS_PREFIX,
  addressFromPrivateKey as tronAddressFromPrivateKey,
  isTronAddressBytes,
  parseTronBase58,
  tronAddressFromBytes,
  tronAddressFromPublicKey,
} from "@chaingate/tron";
import { hex } from "@scure/base";
import { parseHex } from "./hex.ts";

/** The first byte of every mainnet-style Tron address. */
export const ADDRESS_PREFIX = TRON_ADDRESS_PREFIX;
const ADDRESS_LENGTH = 21;

/** Base58Check text (`T…`) of a 21-byte address. */
export function addressToBase58(address: Uint8Array): string {
  return tronAddressFromBytes(address).base58;
}

/** True when the bytes are a well-formed 21-byte Tron address. */
export function isValidAddress(address: Uint8Array): boolean {
  return isTronAddressBytes(address);
}

/** Decodes a `T…` address; `undefined` on a bad checksum, alphabet or length. */
export function addressFromBase58(text: string): Uint8Array | undefined {
  const address = parseTronBase58(text);
  return address && hex.decode(address.hex);
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
  return hex.decode(tronAddressFromPublicKey(publicKey).hex);
}

/** The Tron address controlled by a private key (32-byte hex). */
export function addressFromPrivateKey(privateKeyHex: string): Uint8Array {
  return hex.decode(tronAddressFromPrivateKey(hex.decode(privateKeyHex)).hex);
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
