/**
 * The deprecated key endpoints' derivations: a fresh random key, and BIP-39 mnemonic → BIP-32 key at
 * m/44'/195'/0'/0/{index} (Tron's SLIP-44 coin type from the chain registry; TronWeb's `fromMnemonic`
 * and TronLink's path).
 */
import { BUILT_IN_CHAINS } from "@chaingate/chain-registry";
import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { hex } from "@scure/base";
import { addressFromPrivateKey, type TronAddress } from "@chaingate/tron";

export const TRON_DERIVATION_PREFIX = `m/44'/${BUILT_IN_CHAINS.TRX.slip44}'/0'/0`;
/** BIP-32 child indexes below the hardened range. */
export const MAX_CHILD_INDEX = 0x7fffffff;

export interface DerivedKey extends TronAddress {
  /** 64 hex digits, no 0x. */
  privateKey: string;
}

export function generateKey(): DerivedKey {
  const privateKey = secp256k1.utils.randomPrivateKey();
  return { privateKey: hex.encode(privateKey), ...addressFromPrivateKey(privateKey) };
}

/** Undefined when the phrase is not a valid English BIP-39 mnemonic (words and checksum). */
export function keyFromMnemonic(mnemonic: string, index: number, passphrase = ""): (DerivedKey & { path: string }) | undefined {
  const normalised = mnemonic.trim().split(/\s+/).join(" ").toLowerCase();
  if (!validateMnemonic(normalised, wordlist)) return undefined;
  const path = `${TRON_DERIVATION_PREFIX}/${index}`;
  const child = HDKey.fromMasterSeed(mnemonicToSeedSync(normalised, passphrase)).derive(path);
  if (!child.privateKey) return undefined;
  return { privateKey: hex.encode(child.privateKey), ...addressFromPrivateKey(child.privateKey), path };
}
