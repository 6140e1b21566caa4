/**
 * Tron transaction signatures (research §2): secp256k1 ECDSA over the 32-byte txID, which is
 * sha256(raw_data bytes); 65 bytes r ‖ s ‖ v with v = 27/28 as TronWeb writes it (RFC 6979, low s).
 * java-tron also accepts v = 0/1, and so does recovery here.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { sha256 } from "@noble/hashes/sha2";
import { tronAddressFromPublicKey, type TronAddress } from "./tron-address.ts";

const SIGNATURE_BYTES = 65;
const RECOVERY_OFFSET = 27;

/** The txID of a transaction: sha256 of its raw_data bytes. */
export function tronTransactionId(rawData: Uint8Array): Uint8Array {
  return sha256(rawData);
}

/** The r ‖ s ‖ v signature of a txID, v = 27/28. */
export function signTronTransactionId(txId: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const signature = secp256k1.sign(txId, privateKey, { lowS: true });
  const bytes = new Uint8Array(SIGNATURE_BYTES);
  bytes.set(signature.toCompactRawBytes());
  bytes[64] = signature.recovery + RECOVERY_OFFSET;
  return bytes;
}

/** The address that signed a txID (v = 27/28 or 0/1), or undefined when it is no valid signature. */
export function recoverTronSigner(txId: Uint8Array, signature: Uint8Array): TronAddress | undefined {
  if (signature.length !== SIGNATURE_BYTES) return undefined;
  const v = signature[64]!;
  const recovery = v >= RECOVERY_OFFSET ? v - RECOVERY_OFFSET : v;
  if (recovery > 3) return undefined;
  try {
    const publicKey = secp256k1.Signature.fromCompact(signature.subarray(0, 64))
      .addRecoveryBit(recovery)
      .recoverPublicKey(txId)
      .toRawBytes(false);
    return tronAddressFromPublicKey(publicKey);
  } catch {
    return undefined;
  }
}
