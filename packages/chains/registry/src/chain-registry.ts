/**
 * The chains a deployment serves: the built-in ones and the EVM chains of its EVM_CHAINS setting,
 * looked up by coin (webhooks, events) or by API prefix (routes).
 */
import { BUILT_IN_CHAINS, BUILT_IN_COINS } from "./built-in-chains.ts";
import type { ChainEntry } from "./chain-entry.ts";
import type { ConfiguredEvmChain } from "./evm-chains-setting.ts";

export interface ChainRegistry {
  /** Every chain: Bitcoin, Ethereum, Tron, then the configured EVM chains in the setting's order. */
  readonly chains: readonly ChainEntry[];
  /** The configured EVM chains, with their node URLs and tokens. */
  readonly evmChains: readonly ConfiguredEvmChain[];
  chain(coin: string): ChainEntry | undefined;
  byPrefix(prefix: string): ChainEntry | undefined;
}

export function createChainRegistry(evmChains: readonly ConfiguredEvmChain[] = []): ChainRegistry {
  const chains: ChainEntry[] = [...BUILT_IN_COINS.map((coin) => BUILT_IN_CHAINS[coin]), ...evmChains.map((chain) => chain.entry)];
  const byCoin = new Map(chains.map((chain) => [chain.coin, chain]));
  const byPrefix = new Map(chains.map((chain) => [chain.prefix, chain]));
  return {
    chains,
    evmChains,
    chain: (coin) => byCoin.get(coin),
    byPrefix: (prefix) => byPrefix.get(prefix),
  };
}
