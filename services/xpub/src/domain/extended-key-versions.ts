/**
 * BIP32 serialization version bytes and the prefixes they encode to, from SLIP-0132's registry.
 * Only `zpub` is accepted; the rest exist so a rejection can name what the caller actually sent.
 */
export interface ExtendedKeyVersion {
  /** The base58 prefix the version bytes produce, e.g. "zpub". */
  encoding: string;
  kind: "public" | "private";
  /** What to tell the caller who sent this encoding. */
  hint: string;
}

/** BIP84 mainnet account public key (SLIP-0132). */
export const ZPUB_VERSION = 0x04b24746;
/** BIP84 mainnet private key (SLIP-0132); only used to recognise and refuse it. */
export const ZPRV_VERSION = 0x04b2430c;
/** BIP32 mainnet public key: the encoding Ethereum wallets export their BIP44 account key in. */
export const XPUB_VERSION = 0x0488b21e;
/** BIP32 mainnet private key; only used to recognise and refuse it. */
export const XPRV_VERSION = 0x0488ade4;

const MAINNET_ONLY = "This service runs on mainnet only; export the mainnet BIP84 (native SegWit, bc1...) account zpub.";
const NOT_BIP84 = "Export the BIP84 (native SegWit, bc1...) account's zpub instead.";

export const EXTENDED_KEY_VERSIONS: ReadonlyMap<number, ExtendedKeyVersion> = new Map<number, ExtendedKeyVersion>([
  [ZPUB_VERSION, { encoding: "zpub", kind: "public", hint: "" }],
  [ZPRV_VERSION, { encoding: "zprv", kind: "private", hint: "" }],
  [XPUB_VERSION, { encoding: "xpub", kind: "public", hint: `xpub is the BIP44 (legacy, 1...) encoding. ${NOT_BIP84}` }],
  [XPRV_VERSION, { encoding: "xprv", kind: "private", hint: "" }],
  [0x049d7cb2, { encoding: "ypub", kind: "public", hint: `ypub is the BIP49 (nested SegWit, 3...) encoding. ${NOT_BIP84}` }],
  [0x049d7878, { encoding: "yprv", kind: "private", hint: "" }],
  [0x0295b43f, { encoding: "Ypub", kind: "public", hint: `Ypub is a multisig encoding. ${NOT_BIP84}` }],
  [0x0295b005, { encoding: "Yprv", kind: "private", hint: "" }],
  [0x02aa7ed3, { encoding: "Zpub", kind: "public", hint: `Zpub is a multisig (P2WSH) encoding. ${NOT_BIP84}` }],
  [0x02aa7a99, { encoding: "Zprv", kind: "private", hint: "" }],
  [0x043587cf, { encoding: "tpub", kind: "public", hint: `tpub is a testnet key. ${MAINNET_ONLY}` }],
  [0x04358394, { encoding: "tprv", kind: "private", hint: "" }],
  [0x044a5262, { encoding: "upub", kind: "public", hint: `upub is a testnet key. ${MAINNET_ONLY}` }],
  [0x044a4e28, { encoding: "uprv", kind: "private", hint: "" }],
  [0x024289ef, { encoding: "Upub", kind: "public", hint: `Upub is a testnet multisig key. ${MAINNET_ONLY}` }],
  [0x024285b5, { encoding: "Uprv", kind: "private", hint: "" }],
  [0x045f1cf6, { encoding: "vpub", kind: "public", hint: `vpub is a testnet key. ${MAINNET_ONLY}` }],
  [0x045f18bc, { encoding: "vprv", kind: "private", hint: "" }],
  [0x02575483, { encoding: "Vpub", kind: "public", hint: `Vpub is a testnet multisig key. ${MAINNET_ONLY}` }],
  [0x02575048, { encoding: "Vprv", kind: "private", hint: "" }],
  [0x019da462, { encoding: "Ltub", kind: "public", hint: `Ltub is a Litecoin key. ${NOT_BIP84}` }],
  [0x019d9cfe, { encoding: "Ltpv", kind: "private", hint: "" }],
  [0x01b26ef6, { encoding: "Mtub", kind: "public", hint: `Mtub is a Litecoin key. ${NOT_BIP84}` }],
  [0x01b26792, { encoding: "Mtpv", kind: "private", hint: "" }],
]);
