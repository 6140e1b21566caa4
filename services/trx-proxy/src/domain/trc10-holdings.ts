/**
 * The `trc10` member of the balance answer: held TRC-10 tokens keyed by symbol (spec, "Tron
 * account balances"), in ascending token id order. Symbols are not unique on Tron: the lowest id
 * keeps the bare symbol, a later token with the same one is keyed `<symbol>#<id>`; a token without
 * a symbol (or one the node does not know) is keyed by its id. Zero balances are not holdings.
 */
import type { Trc10Metadata } from "./trc10-metadata-cache.ts";

/** One assetV2 entry: token id → amount in the token's smallest unit. */
export interface Trc10Balance {
  id: string;
  amount: bigint;
}

export interface Trc10Holding {
  name: string;
  id: string;
  amount: bigint;
}

export function trc10Holdings(
  balances: readonly Trc10Balance[],
  metadata: ReadonlyMap<string, Pick<Trc10Metadata, "name" | "symbol">>,
): Map<string, Trc10Holding> {
  const holdings = new Map<string, Trc10Holding>();
  const held = balances
    .filter((balance) => balance.amount > 0n)
    .sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const { id, amount } of held) {
    const token = metadata.get(id);
    const symbol = token?.symbol || id;
    holdings.set(holdings.has(symbol) ? `${symbol}#${id}` : symbol, { name: token?.name ?? "", id, amount });
  }
  return holdings;
}
