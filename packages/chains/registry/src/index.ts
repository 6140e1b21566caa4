export type { ChainEntry, ChainKind, TokenReporting } from "./chain-entry.ts";
export { BUILT_IN_CHAINS, BUILT_IN_COINS, DEFAULT_CONFIRMATIONS, perBuiltInChain, type BuiltInCoin } from "./built-in-chains.ts";
