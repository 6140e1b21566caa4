/**
 * Signatures over a txID as the simulator keeps them (bytes; keys as hex): the signing and the
 * recovery are @chaingate/tron's. Its tests still check them against TronWeb-made vectors.
 */
import { recoverTronSigner, signTronTransactionId } from "@chaingate/tron";
import { hex } from "@scure/base";

/** Signs a 32-byte txID (RFC 6979, low-s) and returns r‖s‖v with v = 27/28, as TronWeb does. */
export function signTransactionId(txId: Uint8Array, privateKeyHex: string): Uint8Array {
  return signTronTransactionId(txId, hex.decode(privateKeyHex));
}

/** Recovers the 21-byte Tron address that produced a signature over txID, or `undefined` if it is not a valid signature. */
export function recoverSigner(txId: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  const signer = recoverTronSigner(txId, signature);
  return signer && hex.decode(signer.hex);
}
