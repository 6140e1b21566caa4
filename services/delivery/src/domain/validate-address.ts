/**
 * Per-coin address validation for webhook entries, returning the form that is stored and matched:
 * BTC as the node prints it (Base58Check P2PKH/P2SH, BIP173 bech32 v0 / BIP350 bech32m v1+,
 * bech32 lower-cased), ETH `0x` + 40 hex lower-cased (the scanner compares lower case), TRX
 * Base58Check with the 0x41 version byte.
 */
import { createHash } from "node:crypto";
import { bech32, bech32m, createBase58check } from "@scure/base";
import type { Coin } from "@chaingate/contracts";

export const BITCOIN_NETWORKS = ["mainnet", "litecoin-regtest"] as const;
export type BitcoinNetwork = (typeof BITCOIN_NETWORKS)[number];

interface NetworkForms {
  hrp: string;
  /** Base58Check version bytes: P2PKH, P2SH (and litecoin's legacy P2SH). */
  versions: readonly number[];
}
/** Mainnet: 0x00/0x05, bc. The dev chain is litecoind regtest: 0x6f, 0x3a, 0xc4 and rltc. */
const FORMS: Readonly<Record<BitcoinNetwork, NetworkForms>> = {
  mainnet: { hrp: "bc", versions: [0x00, 0x05] },
  "litecoin-regtest": { hrp: "rltc", versions: [0x6f, 0x3a, 0xc4] },
};
const TRON_VERSION = 0x41;

const base58check = createBase58check((data) => createHash("sha256").update(data).digest());

/** The stored form of `input`, or null when it is no address of `coin`. */
export function normalizeAddress(coin: Coin, input: string, network: BitcoinNetwork): string | null {
  switch (coin) {
    case "ETH":
      return /^0x[0-9a-fA-F]{40}$/.test(input) ? input.toLowerCase() : null;
    case "TRX": {
      const payload = decodeBase58check(input);
      return payload?.length === 21 && payload[0] === TRON_VERSION ? input : null;
    }
    case "BTC":
      return normalizeBitcoin(input, FORMS[network]);
  }
}

function normalizeBitcoin(input: string, forms: NetworkForms): string | null {
  const payload = decodeBase58check(input);
  if (payload) return payload.length === 21 && forms.versions.includes(payload[0]!) ? input : null;
  return isSegwit(input, forms.hrp) ? input.toLowerCase() : null;
}

function decodeBase58check(input: string): Uint8Array | null {
  if (!/^[1-9A-HJ-NP-Za-km-z]{25,40}$/.test(input)) return null;
  try {
    return base58check.decode(input);
  } catch {
    return null;
  }
}

/** BIP173/BIP350: v0 with bech32 and a 20- or 32-byte program, v1..16 with bech32m and 2..40 bytes. */
function isSegwit(input: string, hrp: string): boolean {
  const lower = input.toLowerCase();
  if (lower !== input && input.toUpperCase() !== input) return false;
  if (!lower.startsWith(`${hrp}1`) || lower.length > 90) return false;
  for (const codec of [bech32, bech32m]) {
    let decoded;
    try {
      decoded = codec.decode(lower as `${string}1${string}`, 90);
    } catch {
      continue;
    }
    if (decoded.prefix !== hrp || decoded.words.length < 1) return false;
    const version = decoded.words[0]!;
    let program: Uint8Array;
    try {
      program = codec.fromWords(decoded.words.slice(1));
    } catch {
      return false;
    }
    if (version === 0) return codec === bech32 && (program.length === 20 || program.length === 32);
    return codec === bech32m && version <= 16 && program.length >= 2 && program.length <= 40;
  }
  return false;
}
