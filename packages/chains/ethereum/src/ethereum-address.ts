/**
 * Ethereum addresses: `0x` + 40 hex digits, any case (EIP-55 checksummed or not), the last 20
 * bytes of keccak-256 of the uncompressed public key. The stored and matched form is lower case:
 * blocks and logs compare lower case, so a checksum is not enforced on input.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { hex } from "@scure/base";

/** `0x` + 20 bytes in hex, any case. */
export const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function isEthereumAddress(input: string): boolean {
  return ETHEREUM_ADDRESS.test(input);
}

/** The lower-case form of `input`, or null when it is no Ethereum address. */
export function normalizeEthereumAddress(input: string): string | null {
  return isEthereumAddress(input) ? input.toLowerCase() : null;
}

/** The lower-case address of a secp256k1 public key, compressed (33 bytes) or uncompressed (65 bytes). */
export function ethereumAddressFromPublicKey(publicKey: Uint8Array): string {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.ProjectivePoint.fromHex(publicKey).toRawBytes(false);
  return `0x${hex.encode(keccak_256(uncompressed.subarray(1)).subarray(12))}`;
}

/** EIP-55: a hex letter is upper case where the matching nibble of keccak-256(lower-case hex) is 8 or more. */
export function toChecksumAddress(address: string): string {
  const lowerHex = address.replace(/^0x/i, "").toLowerCase();
  const hash = hex.encode(keccak_256(new TextEncoder().encode(lowerHex)));
  let out = "0x";
  for (let i = 0; i < lowerHex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? lowerHex[i]!.toUpperCase() : lowerHex[i]!;
  return out;
}
