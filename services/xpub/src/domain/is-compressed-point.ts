/** Whether 33 bytes are a compressed secp256k1 point (prefix 02/03, x on the curve). */
import { secp256k1 } from "@noble/curves/secp256k1";

export function isCompressedPoint(bytes: Uint8Array): boolean {
  if (bytes.length !== 33 || (bytes[0] !== 0x02 && bytes[0] !== 0x03)) return false;
  try {
    secp256k1.ProjectivePoint.fromHex(bytes);
    return true;
  } catch {
    return false;
  }
}
