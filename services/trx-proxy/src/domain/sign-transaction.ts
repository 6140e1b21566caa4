/**
 * Local signing for the deprecated send endpoints (research §2): secp256k1 ECDSA over the 32-byte
 * txID, which is sha256(raw_data bytes); 65 bytes r ‖ s ‖ v with v = 27/28 as TronWeb writes it
 * (RFC 6979, low s). The txID is recomputed from raw_data_hex, never taken from the node's word.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { sha256 } from "@noble/hashes/sha2";
import { hex } from "@scure/base";

const RECOVERY_OFFSET = 27;

/** The txID of an unsigned transaction: sha256 of its raw_data_hex bytes. */
export function transactionId(rawDataHex: string): string {
  return hex.encode(sha256(hex.decode(rawDataHex.toLowerCase())));
}

/** The r ‖ s ‖ v signature (hex) of a txID. */
export function signTransactionId(txId: string, privateKey: Uint8Array): string {
  const signature = secp256k1.sign(hex.decode(txId), privateKey, { lowS: true });
  return `${signature.toCompactHex()}${(signature.recovery + RECOVERY_OFFSET).toString(16).toUpperCase()}`;
}

/** A 64-hex-digit private key (an optional 0x accepted) that is a valid secp256k1 scalar, as bytes. */
export function parsePrivateKey(text: string): Uint8Array | undefined {
  const digits = text.startsWith("0x") ? text.slice(2) : text;
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) return undefined;
  const bytes = hex.decode(digits.toLowerCase());
  return secp256k1.utils.isValidPrivateKey(bytes) ? bytes : undefined;
}
