/**
 * Per-webhook notification settings, shared by the registry (validation, OpenAPI, storage) and the
 * scanner (which applies them). The facts behind them are the chain registry's
 * (@chaingate/chain-registry); these tables name them for the API's built-in coins.
 */
import { BUILT_IN_CHAINS, DEFAULT_CONFIRMATIONS, perBuiltInChain } from "@chaingate/chain-registry";
import type { Coin } from "./events/event-contract.ts";

export { DEFAULT_CONFIRMATIONS };

/** The most confirmations a webhook may ask for on each chain (inside the scanner's reorg window). */
export const MAX_CONFIRMATIONS: Record<Coin, number> = perBuiltInChain((chain) => chain.confirmations.max);

/** `include_tokens` when none is sent: true where the chain always reports tokens (TRX). */
export function defaultIncludeTokens(coin: Coin): boolean {
  return coin === BUILT_IN_CHAINS.TRX.coin;
}
