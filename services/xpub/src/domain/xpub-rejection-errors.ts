/**
 * Why a key sent to `POST /api/v1/btc/xpub` was refused (all map to 422). One class per condition,
 * each with a stable `code`; the message tells the caller what to send instead.
 */
import { ChaingateError } from "@chaingate/errors";

/** Base of every rejection of a submitted extended key; `instanceof` this to map to 422. */
export abstract class XpubRejectedError extends ChaingateError {
  override name: string = "XpubRejectedError";
}

/** Empty, whitespace, characters outside base58, or a payload that is not 78 bytes + checksum. */
export class XpubUnparseableError extends XpubRejectedError {
  override name = "XpubUnparseableError" as const;
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super("xpub_unparseable", `The key cannot be parsed: ${reason} Send the account's zpub (base58check, starts with "zpub").`, options);
  }
}

/** Base58 decodes to the right length, but the 4-byte double-SHA256 checksum does not match. */
export class XpubBadChecksumError extends XpubRejectedError {
  override name = "XpubBadChecksumError" as const;
  constructor() {
    super(
      "xpub_bad_checksum",
      "The key's base58check checksum does not match; it was probably mistyped or truncated. Copy the zpub again.",
    );
  }
}

/** A private extended key (zprv, xprv, yprv, tprv, vprv, ...): we never accept key material that can spend. */
export class XpubPrivateKeyError extends XpubRejectedError {
  override name = "XpubPrivateKeyError" as const;
  readonly encoding: string;
  constructor(encoding: string) {
    super("xpub_private_key", `The key is a private key (${encoding}); send the account's public key (zpub). Never share a private key.`, {
      details: { encoding },
    });
    this.encoding = encoding;
  }
}

/** A public extended key in another encoding (xpub, ypub, Zpub, tpub, vpub, ...) or unknown version bytes. */
export class XpubWrongVersionError extends XpubRejectedError {
  override name = "XpubWrongVersionError" as const;
  readonly encoding: string;
  constructor(encoding: string, hint: string) {
    super("xpub_wrong_version", `The key is a ${encoding}; only a BIP84 account key in zpub encoding is accepted. ${hint}`, {
      details: { encoding },
    });
    this.encoding = encoding;
  }
}

/** A zpub that is not account level: BIP84 accounts sit at depth 3 (m/84'/0'/0'). */
export class XpubWrongDepthError extends XpubRejectedError {
  override name = "XpubWrongDepthError" as const;
  readonly depth: number;
  constructor(depth: number) {
    super(
      "xpub_wrong_depth",
      `The key is at depth ${depth}; send the account-level key at depth 3 (m/84'/0'/0'), as exported by the wallet's account settings.`,
      { details: { depth } },
    );
    this.depth = depth;
  }
}

/** A depth-3 zpub whose child number is not hardened, so it cannot be a BIP84 account (account'). */
export class XpubNotAccountKeyError extends XpubRejectedError {
  override name = "XpubNotAccountKeyError" as const;
  constructor(childNumber: number) {
    super(
      "xpub_not_account_key",
      `The key's child number ${childNumber} is not hardened, so it is not a BIP84 account key (m/84'/0'/account'); send the account's zpub.`,
      { details: { childNumber } },
    );
  }
}

/** The 33 public-key bytes are not a compressed secp256k1 point. */
export class XpubInvalidPublicKeyError extends XpubRejectedError {
  override name = "XpubInvalidPublicKeyError" as const;
  constructor(options: { cause?: unknown } = {}) {
    super("xpub_invalid_public_key", "The key's public key is not a valid compressed secp256k1 point; the key is corrupt.", options);
  }
}
