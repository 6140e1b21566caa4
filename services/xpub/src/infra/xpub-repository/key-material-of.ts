import type { ParsedAccountKey } from "../../domain/key-scheme.ts";

/** What a key is compared by (per chain): public key + chain code, hex; the text's metadata does not count. */
export function keyMaterialOf(key: ParsedAccountKey): string {
  return Buffer.concat([key.publicKey, key.chainCode]).toString("hex");
}
