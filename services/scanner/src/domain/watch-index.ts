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

/**
 * A bitmap in front of each coin's map: 2^26 bits (8 MiB, allocated when the coin gets its first
 * watched address), indexed by a hash of an address's last
 * 8 characters (random in every address form). Almost every output of a block pays an unwatched
 * address; the bitmap turns those lookups into one probe of a structure that stays in the CPU
 * cache (or at least the last-level cache), instead of the cache misses of a million-entry hash
 * table, so matching time hardly grows with the index (1.5 % false positives at 1,000,000
 * addresses fall through to the map). Bits are never cleared (an address that stops being watched only costs a
 * map lookup when it appears), so the bitmap needs no counting.
 */
const FILTER_BITS_LOG2 = 26;
const FILTER_MASK = (1 << FILTER_BITS_LOG2) - 1;
const FILTER_CHARS = 8;

function filterSlot(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = key.length - 1, end = Math.max(0, key.length - FILTER_CHARS); i >= end; i--) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash ^ (hash >>> 15)) & FILTER_MASK;
}

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
  private readonly filters: Partial<Record<Coin, Uint8Array>> = {};
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
    const filter = (this.filters[change.coin] ??= newFilter());
    for (const address of change.addresses) {
      const key = watchKey(change.coin, address);
      if (key === undefined) continue;
      const slot = filterSlot(key);
      filter[slot >>> 3]! |= 1 << (slot & 7);
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
    const filter = this.filters[coin];
    if (filter === undefined) return undefined;
    const slot = filterSlot(key);
    if ((filter[slot >>> 3]! & (1 << (slot & 7))) === 0) return undefined;
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

function newFilter(): Uint8Array {
  return new Uint8Array(1 << (FILTER_BITS_LOG2 - 3));
}

/** Calls `each` for every webhook id in a watchers value. */
export function forEachWatcher(watchers: Watchers | undefined, each: (webhookId: number) => void): void {
  if (watchers === undefined) return;
  if (typeof watchers === "number") each(watchers);
  else for (const id of watchers) each(id);
}
