/**
 * The one BIP32 implementation the domain uses: the `bip32` package backed by libsecp256k1's
 * WebAssembly build (`tiny-secp256k1`), the pairing bitcoinjs maintains and tests together.
 */
import { BIP32Factory, type BIP32API } from "bip32";
import * as ecc from "tiny-secp256k1";

export const bip32: BIP32API = BIP32Factory(ecc);

/** True when the 33 bytes are a compressed secp256k1 point (prefix 02/03, x on the curve). */
export function isCompressedPoint(bytes: Uint8Array): boolean {
  return bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03) && ecc.isPoint(bytes);
}
