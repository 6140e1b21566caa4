/**
 * The in-memory watch index: coin + address → the webhooks watching it, with their settings.
 * A lookup is one hash probe whatever the number of watched addresses.
 *
 * Memory: most addresses are watched by one webhook, so an entry's value is that webhook's id
 * (a small integer, no allocation) and becomes an array only when a second webhook watches the
 * same address. Each address string is held once: the map key and the webhook's own list share it.
 * Tron addresses are keyed by their 20-byte hex body (what blocks and logs carry).
 */
import type { Coin } from "@chaingate/contracts";
import { effectiveConfirmations } from "./chain-settings.ts";
import { tronAddressBody, tronAddressFromBody } from "./tron-address.ts";

/** A webhook as the registry last described it (`webhook.changed`). */
export interface WatchedWebhook {
  webhookId: number;
  coin: Coin;
  addresses: readonly string[];
  isActive: boolean;
  deleted: boolean;
  version: number;
  confirmations?: number | undefined;
  includeTokens?: boolean | undefined;
}

/** The settings a match needs, per webhook. */
export interface WebhookSettings {
  webhookId: number;
  confirmations: number;
  includeTokens: boolean;
}

interface IndexedWebhook extends WebhookSettings {
  coin: Coin;
  version: number;
  /** Index keys of its addresses (shared with the map keys). */
  keys: string[];
  /** Key → address as the webhook lists it, only where they differ (Tron, upper-case bech32). */
  listed: Map<string, string> | undefined;
}

type Watchers = number | number[];

/** The lookup key of an address on its chain; undefined when it can never appear on that chain. */
export function watchKey(coin: Coin, address: string): string | undefined {
  switch (coin) {
    case "ETH":
      return address.toLowerCase();
    case "TRX":
      return tronAddressBody(address);
    case "BTC":
      // Bech32 may be written in upper case (QR codes); nodes print it in lower case.
      return address === address.toUpperCase() && /^[A-Z]{1,83}1[02-9AC-HJ-NP-Z]+$/.test(address) ? address.toLowerCase() : address;
  }
}

export class WatchIndex {
  private readonly byCoin: Record<Coin, Map<string, Watchers>> = { BTC: new Map(), ETH: new Map(), TRX: new Map() };
  private readonly webhooks = new Map<number, IndexedWebhook>();
  /** Versions of removed webhooks too, so an old event arriving late cannot bring one back. */
  private readonly versions = new Map<number, number>();

  /** Applies a registry change; older versions than the one applied are ignored. Returns whether it applied. */
  apply(change: WatchedWebhook): boolean {
    const known = this.versions.get(change.webhookId);
    if (known !== undefined && change.version < known) return false;
    this.versions.set(change.webhookId, change.version);
    this.remove(change.webhookId);
    if (change.deleted || !change.isActive) return true;
    const keys: string[] = [];
    let listed: Map<string, string> | undefined;
    const map = this.byCoin[change.coin];
    for (const address of change.addresses) {
      const key = watchKey(change.coin, address);
      if (key === undefined) continue;
      const existing = map.get(key);
      if (existing === change.webhookId || (Array.isArray(existing) && existing.includes(change.webhookId))) continue;
      keys.push(key);
      // Tron keys are turned back into T… addresses on a match; only other rewrites are remembered.
      if (key !== address && change.coin !== "TRX") (listed ??= new Map()).set(key, address);
      if (existing === undefined) map.set(key, change.webhookId);
      else map.set(key, Array.isArray(existing) ? [...existing, change.webhookId] : [existing, change.webhookId]);
    }
    this.webhooks.set(change.webhookId, {
      webhookId: change.webhookId,
      coin: change.coin,
      version: change.version,
      confirmations: effectiveConfirmations(change.coin, change.confirmations),
      includeTokens: change.includeTokens ?? false,
      keys,
      listed,
    });
    return true;
  }

  private remove(webhookId: number): void {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook) return;
    const map = this.byCoin[webhook.coin];
    for (const key of webhook.keys) {
      const existing = map.get(key);
      if (existing === webhookId) map.delete(key);
      else if (Array.isArray(existing)) {
        const rest = existing.filter((id) => id !== webhookId);
        map.set(key, rest.length === 1 ? rest[0]! : rest);
      }
    }
    this.webhooks.delete(webhookId);
  }

  /** The ids of the webhooks watching `key` (a key as `watchKey` makes it); undefined when none. */
  watchers(coin: Coin, key: string): Watchers | undefined {
    return this.byCoin[coin].get(key);
  }

  settings(webhookId: number): WebhookSettings | undefined {
    return this.webhooks.get(webhookId);
  }

  /** The address as webhook `webhookId` lists it, for an index key. */
  listedAddress(webhookId: number, key: string): string | undefined {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook) return undefined;
    if (webhook.coin === "TRX") return tronAddressFromBody(key);
    return webhook.listed?.get(key) ?? key;
  }

  /** Distinct watched addresses of a chain. */
  size(coin: Coin): number {
    return this.byCoin[coin].size;
  }

  /** Whether any active webhook watches this chain (a block of an unwatched chain is not matched). */
  watchesAny(coin: Coin): boolean {
    return this.byCoin[coin].size > 0;
  }
}

/** Calls `each` for every webhook id in a watchers value. */
export function forEachWatcher(watchers: Watchers | undefined, each: (webhookId: number) => void): void {
  if (watchers === undefined) return;
  if (typeof watchers === "number") each(watchers);
  else for (const id of watchers) each(id);
}
