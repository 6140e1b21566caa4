/** Turns a transfer and the index keys of its two sides into matches, one per watching webhook. */
import type { Coin } from "@chaingate/contracts";
import type { Match, Transfer } from "./transfer.ts";
import { forEachWatcher, type WatchIndex } from "./watch-index.ts";

export interface TransferSides {
  coin: Coin;
  /** Index key of the receiving side. */
  toKey: string;
  /** Index key of the sending side; undefined when the chain has none to match (Bitcoin inputs). */
  fromKey: string | undefined;
  /** Token transfers that reach only webhooks which opted in (Ethereum's ERC-20). */
  optInOnly?: boolean;
}

/**
 * Appends to `into` one match per webhook watching either side; the transfer is built only when
 * someone watches it. A webhook watching both sides gets one notification, for the receiving side.
 */
export function collectMatches(index: WatchIndex, sides: TransferSides, build: () => Transfer, into: Match[]): void {
  const toWatchers = index.watchers(sides.coin, sides.toKey);
  const fromWatchers = sides.fromKey === undefined ? undefined : index.watchers(sides.coin, sides.fromKey);
  if (toWatchers === undefined && fromWatchers === undefined) return;
  let transfer: Transfer | undefined;
  const seen = new Set<number>();
  const add = (webhookId: number, key: string, direction: "in" | "out") => {
    if (seen.has(webhookId)) return;
    seen.add(webhookId);
    const settings = index.settings(webhookId);
    if (!settings || (sides.optInOnly && !settings.includeTokens)) return;
    transfer ??= build();
    into.push({
      transfer,
      webhookId,
      watchedAddress: index.listedAddress(webhookId, key) ?? key,
      direction,
      confirmations: settings.confirmations,
    });
  };
  forEachWatcher(toWatchers, (id) => add(id, sides.toKey, "in"));
  if (sides.fromKey !== undefined) {
    const fromKey = sides.fromKey;
    forEachWatcher(fromWatchers, (id) => add(id, fromKey, "out"));
  }
}
