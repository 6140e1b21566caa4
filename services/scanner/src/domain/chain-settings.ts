/**
 * Per-chain tunables of the follower. The kept window (recent block hashes and matches) bounds the
 * deepest reorg the scanner can undo; the maximum confirmations a webhook may ask for stays well
 * inside it, so a pending transfer is always published (or reverted) before its block is pruned.
 */
import { DEFAULT_CONFIRMATIONS, MAX_CONFIRMATIONS, type Coin } from "@chaingate/contracts";

export interface ChainSettings {
  /** Blocks kept behind the cursor (hashes and matches): the deepest reorg that can be undone. */
  reorgWindow: number;
  /** The most confirmations a webhook may ask for on this chain (the registry's table, `MAX_CONFIRMATIONS`). */
  maxConfirmations: number;
}

/**
 * Bitcoin: reorgs deeper than a few blocks have not happened since 2013. The maxima come from
 * `@chaingate/contracts`, where the registry validates against the same table.
 */
export const CHAIN_SETTINGS: Record<Coin, ChainSettings> = {
  BTC: { reorgWindow: 144, maxConfirmations: MAX_CONFIRMATIONS.BTC },
  ETH: { reorgWindow: 128, maxConfirmations: MAX_CONFIRMATIONS.ETH },
  TRX: { reorgWindow: 100, maxConfirmations: MAX_CONFIRMATIONS.TRX },
};

export { DEFAULT_CONFIRMATIONS };

/** The largest kept window a setting may ask for (blocks; a day and a half of Bitcoin, 3 hours of Ethereum, over 8 hours of Tron). */
export const MAX_REORG_WINDOW = 10_000;

/** A webhook's confirmations within 1..max of its chain (the registry refuses larger ones; a stray larger value is capped). */
export function effectiveConfirmations(coin: Coin, requested: number | undefined): number {
  const wanted = requested ?? DEFAULT_CONFIRMATIONS;
  return Math.min(Math.max(1, Math.trunc(wanted)), CHAIN_SETTINGS[coin].maxConfirmations);
}
