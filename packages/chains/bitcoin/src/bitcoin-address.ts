/**
 * Bitcoin addresses as the node prints them: Base58Check P2PKH/P2SH, BIP173 bech32 (witness v0) and
 * BIP350 bech32m (v1+), bech32 in lower case. Codecs are @scure/base's.
 */
import { sha256 } from "@noble/hashes/sha2";
import { bech32, bech32m, createBase58check } from "@scure/base";
import { BITCOIN_ADDRESS_FORMS, type BitcoinAddressForms, type BitcoinNetwork } from "./bitcoin-network.ts";
import { hash160 } from "./hash160.ts";

const base58check = createBase58check(sha256);
/** BIP173: a segwit address is at most 90 characters. */
const MAX_BECH32_LENGTH = 90;
/** Segregated witness program version of P2WPKH (BIP141). */
const P2WPKH_WITNESS_VERSION = 0;

/** The form `input` is stored and matched in (bech32 lower-cased), or null when it is no address of `network`. */
export function normalizeBitcoinAddress(input: string, network: BitcoinNetwork): string | null {
  const forms = BITCOIN_ADDRESS_FORMS[network];
  const payload = decodeBase58check(input);
  if (payload) return payload.length === 21 && forms.base58Versions.includes(payload[0]!) ? input : null;
  return isSegwit(input, forms) ? input.toLowerCase() : null;
}

/** The P2WPKH address (BIP84) of a compressed public key: witness v0, program = hash160 of the key. */
export function p2wpkhAddress(compressedPublicKey: Uint8Array, network: BitcoinNetwork): string {
  return bech32.encode(BITCOIN_ADDRESS_FORMS[network].hrp, [P2WPKH_WITNESS_VERSION, ...bech32.toWords(hash160(compressedPublicKey))]);
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
function isSegwit(input: string, forms: BitcoinAddressForms): boolean {
  const lower = input.toLowerCase();
  if (lower !== input && input.toUpperCase() !== input) return false;
  if (!lower.startsWith(`${forms.hrp}1`) || lower.length > MAX_BECH32_LENGTH) return false;
  for (const codec of [bech32, bech32m]) {
    let decoded;
    try {
      decoded = codec.decode(lower as `${string}1${string}`, MAX_BECH32_LENGTH);
    } catch {
      continue;
    }
    if (decoded.prefix !== forms.hrp || decoded.words.length < 1) return false;
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
