/**
 * Local signing for the deprecated send endpoints, in the text forms they exchange with the node:
 * the signature itself is @chaingate/tron's. The txID is recomputed from raw_data_hex, never taken
 * from the node's word.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { signTronTransactionId, tronTransactionId } from "@chaingate/tron";
import { hex } from "@scure/base";

/** The txID of an unsigned transaction: sha256 of its raw_data_hex bytes. */
export function transactionId(rawDataHex: string): string {
  return hex.encode(tronTransactionId(hex.decode(rawDataHex.toLowerCase())));
}

/** The r ‖ s ‖ v signature (hex; v in upper case, as TronWeb writes it) of a txID. */
export function signTransactionId(txId: string, privateKey: Uint8Array): string {
  const signature = signTronTransactionId(hex.decode(txId), privateKey);
  return `${hex.encode(signature.subarray(0, 64))}${signature[64]!.toString(16).toUpperCase()}`;
}

/** A 64-hex-digit private key (an optional 0x accepted) that is a valid secp256k1 scalar, as bytes. */
export function parsePrivateKey(text: string): Uint8Array | undefined {
  const digits = text.startsWith("0x") ? text.slice(2) : text;
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) return undefined;
  const bytes = hex.decode(digits.toLowerCase());
  return secp256k1.utils.isValidPrivateKey(bytes) ? bytes : undefined;
}
