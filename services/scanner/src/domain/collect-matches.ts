/** Turns a transfer and the index keys of its two sides into matches, one per watching webhook. */
import type { Coin } from "@chaingate/contracts";
import type { Match, Transfer } from "./transfer.ts";
import { forEachWatcher, type WatchIndex, type WebhookSettings } from "./watch-index.ts";

export interface TransferSides {
  coin: Coin;
  /** Index key of the receiving side. */
  toKey: string;
  /** Index key of the sending side; undefined when the chain has none to match (Bitcoin inputs). */
  fromKey: string | undefined;
  /**
   * Transfers only webhooks that opted in get: "tokens" a listed token's (include_tokens or
   * all_tokens), "anyToken" an unlisted ERC-20's (all_tokens).
   */
  optInOnly?: "tokens" | "anyToken" | undefined;
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
    if (!settings || !optedIn(settings, sides.optInOnly)) return;
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

function optedIn(settings: WebhookSettings, optIn: TransferSides["optInOnly"]): boolean {
  if (optIn === undefined) return true;
  return optIn === "tokens" ? settings.includeTokens || settings.allTokens : settings.allTokens;
}
