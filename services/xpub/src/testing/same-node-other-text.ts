/**
 * Test keys for the one-account-per-key rule: a fresh account key, and another serialization of
 * the same node (same public key and chain code, so the same addresses) that differs as text.
 */
import { randomBytes } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2";
import { base58check } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { XPRV_VERSION, XPUB_VERSION, ZPRV_VERSION, ZPUB_VERSION } from "../domain/extended-key-versions.ts";

const VERSION_OFFSET = 0;
const PARENT_FINGERPRINT_OFFSET = 5;
const codec = base58check(sha256);

/** A random account key at `path` (BIP84 zpub by default), never registered before. */
export function freshAccountKey(path = "m/84'/0'/0'", versions = { private: ZPRV_VERSION, public: ZPUB_VERSION }): string {
  return HDKey.fromMasterSeed(randomBytes(32), versions).derive(path).publicExtendedKey;
}

/** A random EVM account key (BIP44 xpub at m/44'/60'/0'), never registered before. */
export function freshEvmAccountKey(): string {
  return freshAccountKey("m/44'/60'/0'", { private: XPRV_VERSION, public: XPUB_VERSION });
}

/** `key` with another parent fingerprint: a different string that derives the very same addresses. */
export function sameNodeOtherText(key: string): string {
  const payload = codec.decode(key);
  const other = Uint8Array.from(payload);
  new DataView(other.buffer).setUint32(
    PARENT_FINGERPRINT_OFFSET,
    new DataView(payload.buffer, payload.byteOffset).getUint32(PARENT_FINGERPRINT_OFFSET) ^ 0xffffffff,
  );
  return codec.encode(other);
}

/** `key` serialized under other version bytes (e.g. a zpub's node as an xpub). */
export function withVersion(key: string, version: number): string {
  const payload = Uint8Array.from(codec.decode(key));
  new DataView(payload.buffer).setUint32(VERSION_OFFSET, version);
  return codec.encode(payload);
}
