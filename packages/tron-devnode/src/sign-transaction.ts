/** secp256k1 signatures over a txID: 65 bytes r‖s‖v, v = 27/28 (TronWeb) or 0/1 (java-tron); no extra hashing. */
import { secp256k1 } from "@noble/curves/secp256k1";
import { addressFromPublicKey } from "./address.ts";
import { concatBytes, toHex } from "./hex.ts";

const SIGNATURE_LENGTH = 65;
const RECOVERY_OFFSET = 27;

/** Signs a 32-byte txID (RFC 6979, low-s) and returns r‖s‖v with v = 27/28, as TronWeb does. */
export function signTransactionId(txId: Uint8Array, privateKeyHex: string): Uint8Array {
  const signature = secp256k1.sign(txId, privateKeyHex, { lowS: true });
  return concatBytes(signature.toCompactRawBytes(), Uint8Array.of(signature.recovery + RECOVERY_OFFSET));
}

/** Recovers the 21-byte Tron address that produced a signature over txID, or `undefined` if it is not a valid signature. */
export function recoverSigner(txId: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (signature.length !== SIGNATURE_LENGTH) return undefined;
  const v = signature[64] ?? 0;
  const recovery = v >= RECOVERY_OFFSET ? v - RECOVERY_OFFSET : v;
  if (recovery > 3) return undefined;
  try {
    const publicKey = secp256k1.Signature.fromCompact(toHex(signature.subarray(0, 64)))
      .addRecoveryBit(recovery)
      .recoverPublicKey(txId)
      .toRawBytes(false);
    return addressFromPublicKey(publicKey);
  } catch {
    return undefined;
  }
}
