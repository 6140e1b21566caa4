/**
 * The Bitcoin networks chaingate knows, and each one's address forms. The registered key is always
 * a mainnet BIP84 `zpub`; the network picks the forms of issued and accepted addresses.
 * `litecoin-regtest` exists so the dev stack and integration tests can pay addresses on the local
 * `litecoind -regtest` chain, which stands in for Bitcoin mainnet there.
 */
import { z } from "zod";

export const BITCOIN_NETWORKS = ["mainnet", "litecoin-regtest"] as const;

export type BitcoinNetwork = (typeof BITCOIN_NETWORKS)[number];

export const DEFAULT_BITCOIN_NETWORK: BitcoinNetwork = "mainnet";

/** A network's address forms. */
export interface BitcoinAddressForms {
  /** The bech32 human-readable part of segwit addresses (BIP173). */
  hrp: string;
  /** Base58Check version bytes: P2PKH, P2SH (and litecoin's legacy P2SH). */
  base58Versions: readonly number[];
}

/** Mainnet: 0x00/0x05, bc. The dev chain is litecoind regtest: 0x6f, 0x3a, 0xc4 and rltc. */
export const BITCOIN_ADDRESS_FORMS: Readonly<Record<BitcoinNetwork, BitcoinAddressForms>> = {
  mainnet: { hrp: "bc", base58Versions: [0x00, 0x05] },
  "litecoin-regtest": { hrp: "rltc", base58Versions: [0x6f, 0x3a, 0xc4] },
};

/** Narrows a configuration string to a BitcoinNetwork. */
export function isBitcoinNetwork(value: unknown): value is BitcoinNetwork {
  return typeof value === "string" && (BITCOIN_NETWORKS as readonly string[]).includes(value);
}

/** Spread into a service's config schema (the xpub issues, the delivery accepts, this network's addresses). */
export const bitcoinNetworkSettings = () => ({
  BITCOIN_NETWORK: z
    .enum(BITCOIN_NETWORKS)
    .default(DEFAULT_BITCOIN_NETWORK)
    .describe(
      "Which Bitcoin address forms the xpub service issues and webhooks accept: mainnet (`bc1…`, 1…, 3…) or the dev chain's litecoind regtest (`rltc1…`, m/n…, Q…/2…). Set the same value for both.",
    ),
});
