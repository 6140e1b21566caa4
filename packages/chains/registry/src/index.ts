export type { ChainEntry, ChainKind, TokenReporting } from "./chain-entry.ts";
export { BUILT_IN_CHAINS, BUILT_IN_COINS, DEFAULT_CONFIRMATIONS, perBuiltInChain, type BuiltInCoin } from "./built-in-chains.ts";
export {
  evmChainsSetting,
  EVM_TRACE_MODES,
  MAX_REORG_WINDOW,
  parseEvmChains,
  type ConfiguredEvmChain,
  type EvmTraceMode,
} from "./evm-chains-setting.ts";
export { WELL_KNOWN_EVM_CHAINS, type WellKnownEvmChain } from "./well-known-evm-chains.ts";
export { createChainRegistry, type ChainRegistry } from "./chain-registry.ts";
