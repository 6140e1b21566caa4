/**
 * Parses the key a client registers: only a BIP84 account-level public key (depth 3,
 * m/84'/0'/account') in SLIP-0132 `zpub` encoding. Everything else is refused with the reason,
 * because issuing addresses from the wrong key type silently sends customers' coins to addresses
 * the client's wallet never scans.
 */
import { HDKey } from "@scure/bip32";
import { isCompressedPoint } from "./is-compressed-point.ts";
import { DEFAULT_BITCOIN_NETWORK, hash160, type BitcoinNetwork } from "@chaingate/bitcoin";
import { EXTENDED_KEY_VERSIONS, ZPRV_VERSION, ZPUB_VERSION } from "./extended-key-versions.ts";
import { SERIALIZED_KEY_BYTES, decodeExtendedKey } from "./decode-extended-key.ts";
import {
  XpubBadChecksumError,
  XpubInvalidPublicKeyError,
  XpubNotAccountKeyError,
  XpubPrivateKeyError,
  XpubUnparseableError,
  XpubWrongDepthError,
  XpubWrongVersionError,
} from "./xpub-rejection-errors.ts";

/** m/84'/0'/account' */
const ACCOUNT_DEPTH = 3;
const HARDENED_OFFSET = 0x80000000;
/** Characters of the key kept at each end of the masked preview. */
const PREVIEW_HEAD_CHARS = 8;
const PREVIEW_TAIL_CHARS = 4;

/** A registered BIP84 account key, parsed and validated. */
export interface AccountZpub {
  /** The key exactly as submitted; base58check is canonical, so it doubles as the dedup key. */
  zpub: string;
  network: BitcoinNetwork;
  /** Compressed secp256k1 public key, 33 bytes. */
  publicKey: Uint8Array;
  /** BIP32 chain code, 32 bytes. */
  chainCode: Uint8Array;
  depth: 3;
  /** First 4 bytes of hash160 of the parent's public key, hex (8 characters). */
  parentFingerprint: string;
  /** The raw BIP32 child number (hardened: >= 0x80000000). */
  childNumber: number;
  /** childNumber without the hardened bit: the BIP44 `account'` index, 0 for the first account. */
  accountIndex: number;
  /** First 4 bytes of hash160 of this key's public key, hex (8 characters): the spec's `fingerprint`. */
  fingerprint: string;
  /**
   * Masked form for display (the spec's `xpub_preview`): the first 8 characters, "…" (U+2026),
   * the last 4, e.g. `zpub6rFR…tZYs`. 8 characters show the encoding and enough to tell keys
   * apart at a glance; the full key is never returned by the API.
   */
  xpubPreview: string;
}

/**
 * Parses and validates a BIP84 account zpub.
 * @throws XpubRejectedError subclasses: XpubUnparseableError, XpubBadChecksumError, XpubPrivateKeyError,
 *   XpubWrongVersionError, XpubWrongDepthError, XpubNotAccountKeyError, XpubInvalidPublicKeyError.
 */
export function parseAccountZpub(input: string, network: BitcoinNetwork = DEFAULT_BITCOIN_NETWORK): AccountZpub {
  const payload = decodeBase58Check(input);

  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const version = view.getUint32(0);
  const keyData = payload.subarray(45, 78);
  if (version !== ZPUB_VERSION) throw rejectionForVersion(version, keyData);

  const depth = view.getUint8(4);
  if (depth !== ACCOUNT_DEPTH) throw new XpubWrongDepthError(depth);
  const childNumber = view.getUint32(9);
  if (childNumber < HARDENED_OFFSET) throw new XpubNotAccountKeyError(childNumber);
  if (!isCompressedPoint(keyData)) throw new XpubInvalidPublicKeyError();

  // HDKey re-validates the whole serialization; anything it still refuses is a corrupt key.
  let node: HDKey;
  try {
    node = HDKey.fromExtendedKey(input, ZPUB_VERSIONS);
  } catch (error) {
    throw new XpubInvalidPublicKeyError({ cause: error });
  }

  return {
    zpub: input,
    network,
    publicKey: Uint8Array.from(node.publicKey!),
    chainCode: Uint8Array.from(node.chainCode!),
    depth: ACCOUNT_DEPTH,
    parentFingerprint: toHex(payload.subarray(5, 9)),
    childNumber,
    accountIndex: childNumber - HARDENED_OFFSET,
    fingerprint: toHex(hash160(node.publicKey!).subarray(0, 4)),
    xpubPreview: maskKey(input),
  };
}

/** The masked display form of a key: first 8 characters, "…", last 4. */
export function maskKey(key: string): string {
  if (key.length <= PREVIEW_HEAD_CHARS + PREVIEW_TAIL_CHARS) return "…";
  return `${key.slice(0, PREVIEW_HEAD_CHARS)}…${key.slice(-PREVIEW_TAIL_CHARS)}`;
}

/** HDKey only accepts the version bytes it is given. */
const ZPUB_VERSIONS = { public: ZPUB_VERSION, private: ZPRV_VERSION };

function decodeBase58Check(input: string): Uint8Array {
  const decoded = decodeExtendedKey(input);
  if (decoded.ok) return decoded.payload;
  switch (decoded.problem) {
    case "not_a_string":
      throw new XpubUnparseableError("the key must be a string.");
    case "empty":
      throw new XpubUnparseableError("the key is empty.");
    case "whitespace":
      throw new XpubUnparseableError("the key contains whitespace.");
    case "too_long":
      throw new XpubUnparseableError(`the key is ${decoded.length} characters long; a zpub has 111.`);
    case "not_base58":
      throw new XpubUnparseableError("the key contains characters outside the base58 alphabet.", { cause: decoded.cause });
    case "wrong_length":
      throw new XpubUnparseableError(
        `the key decodes to ${decoded.bytes} bytes, not the ${SERIALIZED_KEY_BYTES + 4} of a BIP32 extended key.`,
      );
    case "bad_checksum":
      throw new XpubBadChecksumError();
  }
}

function rejectionForVersion(version: number, keyData: Uint8Array): Error {
  const known = EXTENDED_KEY_VERSIONS.get(version);
  if (known?.kind === "private") return new XpubPrivateKeyError(known.encoding);
  if (known) return new XpubWrongVersionError(known.encoding, known.hint);
  // Unknown version bytes: a leading 0x00 in the key field is how BIP32 serializes a private key.
  const versionHex = `0x${version.toString(16).padStart(8, "0")}`;
  if (keyData[0] === 0x00) return new XpubPrivateKeyError(`unknown private encoding ${versionHex}`);
  return new XpubWrongVersionError(
    `key with unknown version bytes ${versionHex}`,
    "Export the BIP84 (native SegWit, bc1...) account's zpub.",
  );
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
