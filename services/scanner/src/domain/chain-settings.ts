/**
 * Per-chain tunables of the follower. The kept window (recent block hashes and matches) bounds the
 * deepest reorg the scanner can undo; the maximum confirmations a webhook may ask for stays well
 * inside it, so a pending transfer is always published (or reverted) before its block is pruned.
 */
import { MAX_REORG_WINDOW, perBuiltInChain } from "@chaingate/chain-registry";
import { DEFAULT_CONFIRMATIONS, type Coin } from "@chaingate/contracts";
import type { BuiltInCoin } from "@chaingate/chain-registry";

export interface ChainSettings {
  /** Blocks kept behind the cursor (hashes and matches): the deepest reorg that can be undone. */
  reorgWindow: number;
  /** The most confirmations a webhook may ask for on this chain. */
  maxConfirmations: number;
}

/** The chain registry's defaults (the reorg windows are settings: `BTC_REORG_WINDOW`, …). */
export const CHAIN_SETTINGS: Readonly<Record<BuiltInCoin, ChainSettings>> = perBuiltInChain((chain) => ({
  reorgWindow: chain.reorgWindow,
  maxConfirmations: chain.confirmations.max,
}));

export { DEFAULT_CONFIRMATIONS };

/** The largest kept window a setting may ask for (the registry's). */
export { MAX_REORG_WINDOW };

/** A built-in chain's settings; undefined for a configured EVM chain (its registry entry has them). */
export function builtInChainSettings(coin: Coin): ChainSettings | undefined {
  return (CHAIN_SETTINGS as Readonly<Record<Coin, ChainSettings | undefined>>)[coin];
}

/**
 * A webhook's confirmations within 1..`max` (its chain's maximum: the registry refuses larger
 * ones; a stray larger value is capped). Without `max`, a built-in chain's, or else the largest
 * reorg window any chain may keep.
 */
export function effectiveConfirmations(coin: Coin, requested: number | undefined, max?: number): number {
  const wanted = requested ?? DEFAULT_CONFIRMATIONS;
  return Math.min(Math.max(1, Math.trunc(wanted)), max ?? builtInChainSettings(coin)?.maxConfirmations ?? MAX_REORG_WINDOW);
}
