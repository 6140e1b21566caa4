/**
 * The chains chaingate has always served: Bitcoin (and its regtest peer, litecoind), Ethereum and
 * Tron. Other EVM chains are entries made from configuration, on the same model.
 */
import { BITCOIN_DECIMALS } from "@chaingate/bitcoin";
import { ETHER_DECIMALS } from "@chaingate/ethereum";
import { TRX_DECIMALS } from "@chaingate/tron";
import type { ChainEntry } from "./chain-entry.ts";

/** The spec's coins. */
export const BUILT_IN_COINS = ["BTC", "ETH", "TRX"] as const;
export type BuiltInCoin = (typeof BUILT_IN_COINS)[number];

/** `confirmations` when none is asked for: notified when the block is processed (the v1 behaviour). */
export const DEFAULT_CONFIRMATIONS = 1;

export const BUILT_IN_CHAINS: { readonly [Coin in BuiltInCoin]: ChainEntry<Coin> } = {
  BTC: {
    coin: "BTC",
    prefix: "btc",
    name: "Bitcoin",
    kind: "bitcoin",
    native: { symbol: "BTC", decimals: BITCOIN_DECIMALS },
    caip2Namespace: "bip122",
    slip44: 0,
    blockSeconds: 600,
    // 100 is the coinbase maturity. No reorg deeper than a few blocks since 2013: a day kept.
    confirmations: { default: DEFAULT_CONFIRMATIONS, max: 100 },
    reorgWindow: 144,
    // The chain has no tokens.
    tokenReporting: "never",
    pendingEvents: true,
  },
  ETH: {
    coin: "ETH",
    prefix: "eth",
    name: "Ethereum",
    kind: "evm",
    native: { symbol: "ETH", decimals: ETHER_DECIMALS },
    caip2Namespace: "eip155",
    slip44: 60,
    blockSeconds: 12,
    // Final after 2 epochs (64 slots); 4 epochs kept.
    confirmations: { default: DEFAULT_CONFIRMATIONS, max: 64 },
    reorgWindow: 128,
    // ERC-20 Transfer logs of the whitelist, when the webhook asks (v1 reported native transfers only).
    tokenReporting: "optional",
    pendingEvents: true,
  },
  TRX: {
    coin: "TRX",
    prefix: "trx",
    name: "Tron",
    kind: "tron",
    native: { symbol: "TRX", decimals: TRX_DECIMALS },
    caip2Namespace: "tron",
    slip44: 195,
    blockSeconds: 3,
    // Solidified after 19 of the 27 super representatives confirmed a block (about 57 s).
    confirmations: { default: DEFAULT_CONFIRMATIONS, max: 30 },
    reorgWindow: 100,
    // The spec reports TRC-10 and TRC-20 transfers.
    tokenReporting: "always",
    // java-tron shows no public mempool.
    pendingEvents: false,
  },
};

/** Each built-in coin's value of one fact, as a table (`perBuiltInChain((chain) => chain.reorgWindow)`). */
export function perBuiltInChain<Value>(fact: (chain: ChainEntry) => Value): { readonly [Coin in BuiltInCoin]: Value } {
  return { BTC: fact(BUILT_IN_CHAINS.BTC), ETH: fact(BUILT_IN_CHAINS.ETH), TRX: fact(BUILT_IN_CHAINS.TRX) };
}
