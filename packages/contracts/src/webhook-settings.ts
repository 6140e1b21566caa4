/**
 * Per-webhook notification settings, shared by the registry (validation, OpenAPI, storage) and the
 * scanner (which applies them), so both read one table.
 */
import type { Coin } from "./events/event-contract.ts";

/** `confirmations` when none is asked for: notified when the block is processed (the v1 behaviour). */
export const DEFAULT_CONFIRMATIONS = 1;

/**
 * The most confirmations a webhook may ask for on each chain; each sits inside the scanner's kept
 * reorg window, so a pending transfer is always published (or reverted) before its block is pruned.
 * Bitcoin: 100 is the coinbase maturity. Ethereum: finality after 2 epochs (64 slots). Tron: a
 * block is solidified after 19 of the 27 super representatives confirmed it (about 57 s).
 */
export const MAX_CONFIRMATIONS: Record<Coin, number> = { BTC: 100, ETH: 64, TRX: 30 };

/**
 * What `include_tokens` can be on each chain. ETH: the webhook chooses (ERC-20 Transfer logs of
 * the scanner's whitelist, default off: v1 reported native transfers only). BTC: always false,
 * the chain has no tokens. TRX: always true, the spec reports TRC-10 and TRC-20 transfers.
 */
export const TOKEN_REPORTING: Record<Coin, "optional" | "never" | "always"> = { BTC: "never", ETH: "optional", TRX: "always" };

/**
 * Whether a webhook of each chain may ask for `pending` (mempool) events (issue #29). Tron: the
 * nodes expose no public mempool, so there is nothing to watch before a block.
 */
export const PENDING_EVENTS: Record<Coin, boolean> = { BTC: true, ETH: true, TRX: false };

/** `include_tokens` when none is sent. */
export function defaultIncludeTokens(coin: Coin): boolean {
  return TOKEN_REPORTING[coin] === "always";
}
