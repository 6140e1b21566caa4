/**
 * Where issued Bitcoin addresses are meant to be paid. The registered key is always a mainnet BIP84
 * `zpub`; the network only picks the bech32 human-readable part (BIP173) of the issued address.
 * `litecoin-regtest` exists so the dev stack and integration tests can pay issued addresses on the
 * local `litecoind -regtest` chain (hrp `rltc`), which stands in for Bitcoin mainnet there.
 */
export const BITCOIN_NETWORKS = ["mainnet", "litecoin-regtest"] as const;

export type BitcoinNetwork = (typeof BITCOIN_NETWORKS)[number];

export const DEFAULT_BITCOIN_NETWORK: BitcoinNetwork = "mainnet";

/** The bech32 human-readable part of P2WPKH addresses on each network. */
export const BECH32_HRP: Readonly<Record<BitcoinNetwork, string>> = {
  mainnet: "bc",
  "litecoin-regtest": "rltc",
};

/** Narrows a configuration string to a BitcoinNetwork. */
export function isBitcoinNetwork(value: unknown): value is BitcoinNetwork {
  return typeof value === "string" && (BITCOIN_NETWORKS as readonly string[]).includes(value);
}
