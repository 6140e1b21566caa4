/**
 * Parses the key a client registers for Ethereum: only a BIP44 account-level public key
 * (depth 3, m/44'/60'/account') in the standard `xpub` encoding. Anything else is refused with the
 * reason: addresses issued from the wrong key are addresses the client's wallet never watches.
 */
import { HDKey } from "@scure/bip32";
import { hash160 } from "@chaingate/bitcoin";
import { decodeExtendedKey } from "../decode-extended-key.ts";
import { EXTENDED_KEY_VERSIONS, XPUB_VERSION } from "../extended-key-versions.ts";
import { maskKey } from "../parse-account-zpub.ts";
import { XpubRejectedError } from "../xpub-rejection-errors.ts";

const ACCOUNT_DEPTH = 3;
const HARDENED_OFFSET = 0x80000000;
/** What to send instead, in the chain's name (configured EVM chains use Ethereum's keys and paths). */
const expectedKey = (chainName: string) => `Send the ${chainName} account's xpub (BIP44, m/44'/60'/0'), as wallets export it.`;

/** A registered Ethereum account key, parsed and validated. */
export interface EthAccountXpub {
  /** The key exactly as submitted. */
  xpub: string;
  publicKey: Uint8Array;
  chainCode: Uint8Array;
  /** childNumber without the hardened bit: the BIP44 `account'` index. */
  accountIndex: number;
  /** First 4 bytes of hash160 of the public key, hex. */
  fingerprint: string;
  xpubPreview: string;
}

/** Why an Ethereum key was refused (422); `code` says which condition. */
export class EthXpubRejectedError extends XpubRejectedError {
  override name = "EthXpubRejectedError" as const;
  constructor(code: string, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}

/**
 * `chainName` names the chain in refusals: a configured EVM chain (Polygon, BNB Chain) takes the
 * same keys (wallets derive every EVM chain's addresses on m/44'/60').
 * @throws EthXpubRejectedError
 */
export function parseEthAccountXpub(input: string, chainName = "Ethereum"): EthAccountXpub {
  const EXPECTED = expectedKey(chainName);
  const payload = decode(input, EXPECTED);
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const version = view.getUint32(0);
  if (version !== XPUB_VERSION) {
    const known = EXTENDED_KEY_VERSIONS.get(version);
    if (known?.kind === "private" || (!known && payload[45] === 0x00)) {
      throw new EthXpubRejectedError(
        "xpub_private_key",
        `The key is a private key (${known?.encoding ?? "unknown encoding"}); send the account's public key (xpub). Never share a private key.`,
      );
    }
    throw new EthXpubRejectedError(
      "xpub_wrong_version",
      `The key is a ${known?.encoding ?? `key with version bytes 0x${version.toString(16)}`}; only a BIP44 account key in xpub encoding is accepted for ${chainName}. ${EXPECTED}`,
    );
  }
  const depth = view.getUint8(4);
  if (depth !== ACCOUNT_DEPTH)
    throw new EthXpubRejectedError(
      "xpub_wrong_depth",
      `The key is at depth ${depth}; send the account-level key at depth 3 (m/44'/60'/0').`,
      { details: { depth } },
    );
  const childNumber = view.getUint32(9);
  if (childNumber < HARDENED_OFFSET)
    throw new EthXpubRejectedError(
      "xpub_not_account_key",
      `The key's child number ${childNumber} is not hardened, so it is not a BIP44 account key (m/44'/60'/account'). ${EXPECTED}`,
    );
  let node: HDKey;
  try {
    node = HDKey.fromExtendedKey(input);
  } catch (error) {
    throw new EthXpubRejectedError(
      "xpub_invalid_public_key",
      "The key's public key is not a valid compressed secp256k1 point; the key is corrupt.",
      { cause: error },
    );
  }
  return {
    xpub: input,
    publicKey: node.publicKey!,
    chainCode: node.chainCode!,
    accountIndex: childNumber - HARDENED_OFFSET,
    fingerprint: Buffer.from(hash160(node.publicKey!).subarray(0, 4)).toString("hex"),
    xpubPreview: maskKey(input),
  };
}

function decode(input: string, EXPECTED: string): Uint8Array {
  const decoded = decodeExtendedKey(input);
  if (decoded.ok) return decoded.payload;
  switch (decoded.problem) {
    case "not_a_string":
    case "empty":
      throw new EthXpubRejectedError("xpub_unparseable", `The key cannot be parsed: it is empty. ${EXPECTED}`);
    case "whitespace":
      throw new EthXpubRejectedError("xpub_unparseable", `The key cannot be parsed: it contains whitespace. ${EXPECTED}`);
    case "too_long":
      throw new EthXpubRejectedError(
        "xpub_unparseable",
        `The key cannot be parsed: it is ${decoded.length} characters long; an xpub has 111. ${EXPECTED}`,
      );
    case "not_base58":
      throw new EthXpubRejectedError(
        "xpub_unparseable",
        `The key cannot be parsed: it contains characters outside the base58 alphabet. ${EXPECTED}`,
        { cause: decoded.cause },
      );
    case "wrong_length":
      throw new EthXpubRejectedError(
        "xpub_unparseable",
        `The key cannot be parsed: it decodes to ${decoded.bytes} bytes, not the 82 of a BIP32 extended key. ${EXPECTED}`,
      );
    case "bad_checksum":
      throw new EthXpubRejectedError(
        "xpub_bad_checksum",
        "The key's base58check checksum does not match; it was probably mistyped or truncated. Copy the xpub again.",
      );
  }
}
