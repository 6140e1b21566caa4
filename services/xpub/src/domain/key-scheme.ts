/**
 * What differs between the chains the xpub service issues for: which extended keys it accepts and
 * how an address is derived from one. Storage, locking, limits and paging are the same for all.
 */
import type { BitcoinNetwork } from "@chaingate/bitcoin";
import { deriveAddress, type DerivedAddress } from "./derive-address.ts";
import { deriveEthAddress, type DerivedEthAddress } from "./eth/derive-eth-address.ts";
import { parseEthAccountXpub, type EthAccountXpub } from "./eth/parse-eth-account-xpub.ts";
import { parseAccountZpub, type AccountZpub } from "./parse-account-zpub.ts";
import type { XpubChain } from "./xpub-chain.ts";

/** The parts of a parsed account key the service stores and shows. */
export interface ParsedAccountKey {
  /** The key exactly as the client sent it (stored: derivation starts from it again). */
  source: string;
  publicKey: Uint8Array;
  chainCode: Uint8Array;
  fingerprint: string;
  xpubPreview: string;
}

export interface IssuedAddressOf {
  address: string;
  index: number;
  path: string;
}

export interface KeyScheme<Key extends ParsedAccountKey = ParsedAccountKey, Issued extends IssuedAddressOf = IssuedAddressOf> {
  chain: XpubChain;
  /** Whose addresses its keys derive: one key holds one record per kind (see migration 0007). */
  kind: "bitcoin" | "evm";
  /** @throws XpubRejectedError with the reason the key is refused */
  parse(input: string): Key;
  derive(key: Key, index: number): Issued;
}

/** Bitcoin: BIP84 account zpubs, P2WPKH addresses (bech32 with the network's prefix). */
export function bitcoinScheme(network: BitcoinNetwork): KeyScheme<AccountZpub & ParsedAccountKey, DerivedAddress> {
  return {
    chain: "BTC",
    kind: "bitcoin",
    parse: (input) => ({ ...parseAccountZpub(input, network), source: input }),
    derive: deriveAddress,
  };
}

/**
 * An EVM chain: BIP44 account xpubs (m/44'/60'/account'), EIP-55 addresses. Ethereum, and each
 * configured EVM chain with the same keys and paths (what wallets derive for every EVM chain).
 */
export function evmScheme(chain: XpubChain, chainName: string): KeyScheme<EthAccountXpub & ParsedAccountKey, DerivedEthAddress> {
  return {
    chain,
    kind: "evm",
    parse: (input) => ({ ...parseEthAccountXpub(input, chainName), source: input }),
    derive: deriveEthAddress,
  };
}

/** Ethereum's scheme. */
export const ethereumScheme = evmScheme("ETH", "Ethereum");
