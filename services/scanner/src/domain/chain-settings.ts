/**
 * Per-chain tunables of the follower. The kept window (recent block hashes and matches) bounds the
 * deepest reorg the scanner can undo; the maximum confirmations a webhook may ask for stays well
 * inside it, so a pending transfer is always published (or reverted) before its block is pruned.
 */
import type { Coin } from "@chaingate/contracts";

export interface ChainSettings {
  /** Blocks kept behind the cursor (hashes and matches): the deepest reorg that can be undone. */
  reorgWindow: number;
  /** The most confirmations a webhook may ask for on this chain. */
  maxConfirmations: number;
}

/**
 * Bitcoin: reorgs deeper than a few blocks have not happened since 2013; 100 is the coinbase
 * maturity. Ethereum: finality after 2 epochs (64 slots). Tron: a block is solidified after 19 of
 * the 27 super representatives confirmed it (about 57 s).
 */
export const CHAIN_SETTINGS: Record<Coin, ChainSettings> = {
  BTC: { reorgWindow: 144, maxConfirmations: 100 },
  ETH: { reorgWindow: 128, maxConfirmations: 64 },
  TRX: { reorgWindow: 100, maxConfirmations: 30 },
};

/** The v1 behaviour: notified when the block is processed. */
export const DEFAULT_CONFIRMATIONS = 1;

/** A webhook's confirmations within 1..max of its chain (a larger request is capped, not refused). */
export function effectiveConfirmations(coin: Coin, requested: number | undefined): number {
  const wanted = requested ?? DEFAULT_CONFIRMATIONS;
  return Math.min(Math.max(1, Math.trunc(wanted)), CHAIN_SETTINGS[coin].maxConfirmations);
}
