/**
 * The in-memory watch index: coin + address → the webhooks watching it, with their settings.
 * Each chain's map has an address filter in front (address-filter.ts): nearly every address of a
 * block is watched by nobody, and the filter turns those lookups away from one small block of
 * memory, where a million-entry map costs the string's hash and a few cache misses.
 *
 * It follows the registry's bucketed feed: a webhook's settings come from its meta, its addresses
 * bucket by bucket, and replacing a bucket removes exactly that bucket's old addresses. Each
 * webhook keeps its index keys in one array grouped by bucket (bucket ids and end offsets beside
 * it), so a bucket costs two small integers, not an object, and a webhook of 1,000 addresses in
 * 640 buckets costs about what one list cost.
 *
 * Memory: most addresses are watched by one webhook, so an entry's value is that webhook's id
 * (a small integer, no allocation) and becomes an array only when a second webhook watches the
 * same address. Each address string is held once: the map key and the webhook's key array share it.
 * Tron addresses are keyed by their 20-byte hex body (what blocks and logs carry).
 */
import type { Coin } from "@chaingate/contracts";
import { effectiveConfirmations } from "./chain-settings.ts";
import { parseTronAddress, tronAddressFromEvmHex, tronEvmHex } from "@chaingate/tron";
import { AddressFilter } from "./address-filter.ts";

/** A webhook's settings as the registry last described them (`webhook.changed`). */
export interface WatchedWebhookMeta {
  webhookId: number;
  coin: Coin;
  /** Matched for: true while the webhook exists, active or not (the delivery holds an inactive webhook's events). */
  isActive: boolean;
  deleted: boolean;
  version: number;
  confirmations?: number | undefined;
  includeTokens?: boolean | undefined;
  /** Also matched against the node's mempool (issue #29); absent: no. */
  pending?: boolean | undefined;
  /** Every ERC-20 Transfer, of any contract (EVM chains, issue #31); absent: no. */
  allTokens?: boolean | undefined;
  /** The level its addresses come in at (2^bucketBits buckets). */
  bucketBits: number;
}

/** A whole webhook in one go (tests, benchmarks): its meta and every address, as one bucket. */
export interface WatchedWebhook extends Omit<WatchedWebhookMeta, "bucketBits"> {
  addresses: readonly string[];
}

/** One bucket's whole address list (`webhook.addresses`). */
export interface AddressBucket {
  bucket: number;
  addresses: readonly string[];
}

/**
 * What a meta does to the index: nothing (older than the one applied), removes the webhook
 * (inactive or deleted), updates its settings, or needs its whole address list loaded (it starts
 * being watched, or moved to another level).
 */
export type MetaEffect = "ignored" | "removed" | "settings" | "reload";

/** The settings a match needs, per webhook. */
export interface WebhookSettings {
  webhookId: number;
  confirmations: number;
  includeTokens: boolean;
  /** Mempool events too ("pending" and its outcome). */
  pending: boolean;
  /** Every ERC-20 transfer, unlisted tokens too (listed ones as with includeTokens). */
  allTokens: boolean;
}

interface IndexedWebhook extends WebhookSettings {
  coin: Coin;
  version: number;
  bucketBits: number;
  /** Index keys of its addresses, grouped by bucket in `bucketIds` order (shared with the map keys). */
  keys: string[];
  /** Its non-empty buckets, ascending. */
  bucketIds: number[];
  /** Where each bucket's keys end in `keys` (exclusive). */
  bucketEnds: number[];
  /** Key → address as the webhook lists it, only where they differ (upper-case bech32). */
  listed: Map<string, string> | undefined;
}

type Watchers = number | number[];

export interface WatchIndexOptions {
  /**
   * An address filter in front of each chain's map (the default). Off, every lookup goes to the
   * map: only to measure what the filter buys (`pnpm bench scanner`).
   */
  addressFilter?: boolean;
  /** The most confirmations a webhook of a chain may ask for (a configured EVM chain's, from its registry entry); default the built-in chains'. */
  maxConfirmations?: (coin: Coin) => number | undefined;
}

/** The lookup key of an address on its chain; undefined when it can never appear on that chain. */
export function watchKey(coin: Coin, address: string): string | undefined {
  switch (coin) {
    case "ETH":
      return address.toLowerCase();
    case "TRX": {
      // Tron addresses are keyed by their 20-byte EVM form: blocks carry 41… hex and logs 20 bytes.
      const tron = parseTronAddress(address);
      return tron && tronEvmHex(tron);
    }
    case "BTC":
      // Bech32 may be written in upper case (QR codes); nodes print it in lower case.
      return address === address.toUpperCase() && /^[A-Z]{1,83}1[02-9AC-HJ-NP-Z]+$/.test(address) ? address.toLowerCase() : address;
    default:
      // Every other coin is an EVM chain of EVM_CHAINS: keyed as Ethereum's.
      return address.toLowerCase();
  }
}

export class WatchIndex {
  /** Per chain (made when its first webhook comes: configured EVM chains too). */
  private readonly byCoin: Record<Coin, Map<string, Watchers>> = {};
  /**
   * Per chain, a filter that holds every key of its map (and keys removed since its last build):
   * a key is added as it enters the map and never taken out, and a rebuild reads the map as it is
   * then, in the same synchronous call, so no lookup ever sees a watched key rejected.
   */
  private readonly filters: Record<Coin, AddressFilter | undefined> = {};
  private readonly addressFilter: boolean;
  private readonly maxConfirmations: (coin: Coin) => number | undefined;
  /** Watched (active) webhooks only. */
  private readonly webhooks = new Map<number, IndexedWebhook>();
  /** Meta versions of every webhook seen, removed ones too, so an old meta arriving late cannot bring one back. */
  private readonly versions = new Map<number, number>();
  /** Counts the changes applied (settings or addresses): a reader that saw another count matches again (the mempool watcher). */
  changes = 0;

  constructor(options: WatchIndexOptions = {}) {
    this.addressFilter = options.addressFilter ?? true;
    this.maxConfirmations = options.maxConfirmations ?? (() => undefined);
  }

  /** A chain's map, made (with its filter) on first use. */
  private mapOf(coin: Coin): Map<string, Watchers> {
    let map = this.byCoin[coin];
    if (!map) {
      map = this.byCoin[coin] = new Map();
      if (this.addressFilter) this.filters[coin] = AddressFilter.build([], 0);
    }
    return map;
  }

  /** What applying `meta` would do, without applying it. */
  metaEffect(meta: WatchedWebhookMeta): MetaEffect {
    const known = this.versions.get(meta.webhookId);
    if (known !== undefined && meta.version < known) return "ignored";
    if (meta.deleted || !meta.isActive) return "removed";
    const current = this.webhooks.get(meta.webhookId);
    return current && current.bucketBits === meta.bucketBits && current.coin === meta.coin ? "settings" : "reload";
  }

  /**
   * Applies a webhook's meta. After "reload" the webhook watches nothing until its buckets are
   * given with `replaceBuckets(..., { all: true })`; callers read them first and apply both at once.
   */
  applyMeta(meta: WatchedWebhookMeta): MetaEffect {
    const effect = this.metaEffect(meta);
    if (effect === "ignored") return effect;
    this.changes++;
    this.versions.set(meta.webhookId, meta.version);
    const settings = {
      confirmations: effectiveConfirmations(meta.coin, meta.confirmations, this.maxConfirmations(meta.coin)),
      includeTokens: meta.includeTokens ?? false,
      pending: meta.pending ?? false,
      allTokens: meta.allTokens ?? false,
      version: meta.version,
    };
    if (effect === "settings") {
      Object.assign(this.webhooks.get(meta.webhookId)!, settings);
      return effect;
    }
    this.remove(meta.webhookId);
    if (effect === "reload") {
      this.webhooks.set(meta.webhookId, {
        webhookId: meta.webhookId,
        coin: meta.coin,
        bucketBits: meta.bucketBits,
        ...settings,
        keys: [],
        bucketIds: [],
        bucketEnds: [],
        listed: undefined,
      });
    }
    return effect;
  }

  /**
   * Replaces the given buckets' address lists of a watched webhook at level `bucketBits` (with
   * `all`, every bucket: the ones not given become empty). Buckets of another level, and webhooks
   * not watched, are left alone (false). Costs one pass over the webhook's keys.
   */
  replaceBuckets(webhookId: number, bucketBits: number, buckets: Iterable<AddressBucket>, options: { all?: boolean } = {}): boolean {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook || webhook.bucketBits !== bucketBits) return false;
    this.changes++;
    const all = options.all ?? false;
    const changes = new Map<number, readonly string[]>();
    for (const { bucket, addresses } of buckets) changes.set(bucket, addresses);
    const map = this.mapOf(webhook.coin);
    const { keys, bucketIds, bucketEnds } = webhook;
    let start = 0;
    for (let i = 0; i < bucketIds.length; i++) {
      if (all || changes.has(bucketIds[i]!)) for (let k = start; k < bucketEnds[i]!; k++) this.unwatch(map, webhook, keys[k]!);
      start = bucketEnds[i]!;
    }
    const nextKeys: string[] = [];
    const nextIds: number[] = [];
    const nextEnds: number[] = [];
    const changed = [...changes.keys()].sort((a, b) => a - b);
    let old = 0;
    let next = 0;
    let oldStart = 0;
    while (old < bucketIds.length || next < changed.length) {
      const oldBucket = old < bucketIds.length ? bucketIds[old]! : Infinity;
      const newBucket = next < changed.length ? changed[next]! : Infinity;
      if (oldBucket < newBucket) {
        if (!all) {
          for (let k = oldStart; k < bucketEnds[old]!; k++) nextKeys.push(keys[k]!);
          nextIds.push(oldBucket);
          nextEnds.push(nextKeys.length);
        }
        oldStart = bucketEnds[old++]!;
        continue;
      }
      if (oldBucket === newBucket) oldStart = bucketEnds[old++]!;
      const before = nextKeys.length;
      this.watchAll(map, webhook, changes.get(newBucket)!, nextKeys);
      if (nextKeys.length > before) {
        nextIds.push(newBucket);
        nextEnds.push(nextKeys.length);
      }
      next++;
    }
    webhook.keys = nextKeys;
    webhook.bucketIds = nextIds;
    webhook.bucketEnds = nextEnds;
    this.rebuildFilterIfDue(webhook.coin);
    return true;
  }

  /** A whole webhook at once (meta and every address as bucket 0 of level 0). Returns whether it applied. */
  apply(change: WatchedWebhook): boolean {
    const effect = this.applyMeta({ ...change, bucketBits: 0 });
    if (effect === "ignored") return false;
    if (effect !== "removed") this.replaceBuckets(change.webhookId, 0, [{ bucket: 0, addresses: change.addresses }], { all: true });
    return true;
  }

  /** Adds the addresses the webhook does not watch yet to the map and their keys to `into`. */
  private watchAll(map: Map<string, Watchers>, webhook: IndexedWebhook, addresses: readonly string[], into: string[]): void {
    const { coin, webhookId } = webhook;
    for (const address of addresses) {
      const key = watchKey(coin, address);
      if (key === undefined) continue;
      const existing = map.get(key);
      if (existing === webhookId || (Array.isArray(existing) && existing.includes(webhookId))) continue;
      into.push(key);
      // Tron keys are turned back into T… addresses on a match; only other rewrites are remembered.
      if (key !== address && coin !== "TRX") (webhook.listed ??= new Map()).set(key, address);
      if (existing === undefined) {
        map.set(key, webhookId);
        this.filters[coin]?.add(key);
      } else map.set(key, Array.isArray(existing) ? [...existing, webhookId] : [existing, webhookId]);
    }
  }

  private unwatch(map: Map<string, Watchers>, webhook: IndexedWebhook, key: string): void {
    const existing = map.get(key);
    if (existing === webhook.webhookId) map.delete(key);
    else if (Array.isArray(existing)) {
      const rest = existing.filter((id) => id !== webhook.webhookId);
      map.set(key, rest.length === 1 ? rest[0]! : rest);
    }
    webhook.listed?.delete(key);
  }

  /**
   * Rebuilds a chain's filter from its map when full or far too large (address-filter.ts). Called
   * once at the end of each change, so a change of many keys rebuilds once, at the size it needs;
   * a filter over-full until then only lets more strangers through, it never rejects a key.
   */
  private rebuildFilterIfDue(coin: Coin): void {
    const map = this.mapOf(coin);
    if (this.filters[coin]?.needsRebuild(map.size)) this.filters[coin] = AddressFilter.build(map.keys(), map.size);
  }

  private remove(webhookId: number): void {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook) return;
    const map = this.mapOf(webhook.coin);
    for (const key of webhook.keys) this.unwatch(map, webhook, key);
    this.webhooks.delete(webhookId);
    this.rebuildFilterIfDue(webhook.coin);
  }

  /** The ids of the webhooks watching `key` (a key as `watchKey` makes it); undefined when none. */
  watchers(coin: Coin, key: string): Watchers | undefined {
    const filter = this.filters[coin];
    if (filter !== undefined && !filter.mightContain(key)) return undefined;
    return this.byCoin[coin]?.get(key);
  }

  /**
   * For each of `keys` (keys as `watchKey` makes them), 1 when some webhook may watch it and 0 when
   * none does: the address filter's answer for a whole block's keys at once, so a matcher asks the
   * exact index only for the few that may be watched (and still must: 1 is only "maybe").
   */
  mayBeWatched(coin: Coin, keys: readonly string[]): Uint8Array {
    const out = new Uint8Array(keys.length);
    const filter = this.filters[coin];
    if (filter === undefined) out.fill(1);
    else filter.mightContainEach(keys, out);
    return out;
  }

  settings(webhookId: number): WebhookSettings | undefined {
    return this.webhooks.get(webhookId);
  }

  /** The address as webhook `webhookId` lists it, for an index key. */
  listedAddress(webhookId: number, key: string): string | undefined {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook) return undefined;
    if (webhook.coin === "TRX") return tronAddressFromEvmHex(key).base58;
    return webhook.listed?.get(key) ?? key;
  }

  /** Every address webhook `webhookId` watches now, as it lists them ([] when it is not watched). */
  listedAddresses(webhookId: number): string[] {
    const webhook = this.webhooks.get(webhookId);
    return webhook ? webhook.keys.map((key) => this.listedAddress(webhookId, key)!) : [];
  }

  /** Whether webhook `webhookId` watches `address` now. */
  watches(webhookId: number, address: string): boolean {
    const webhook = this.webhooks.get(webhookId);
    const key = webhook && watchKey(webhook.coin, address);
    if (key === undefined) return false;
    const watchers = this.watchers(webhook!.coin, key);
    return watchers === webhookId || (Array.isArray(watchers) && watchers.includes(webhookId));
  }

  /** Distinct watched addresses of a chain. */
  size(coin: Coin): number {
    return this.byCoin[coin]?.size ?? 0;
  }

  /** Addresses a webhook watches now (0 when it is not watched). */
  watchedCount(webhookId: number): number {
    return this.webhooks.get(webhookId)?.keys.length ?? 0;
  }

  /** Bytes of a chain's address filter (0 without one). */
  filterBytes(coin: Coin): number {
    return this.filters[coin]?.byteLength ?? 0;
  }

  /** Whether any active webhook watches this chain (a block of an unwatched chain is not matched). */
  watchesAny(coin: Coin): boolean {
    return (this.byCoin[coin]?.size ?? 0) > 0;
  }

  /** Whether a webhook of `coin` has `all_tokens` on (every Transfer log is looked at only then). */
  wantsAllTokens(coin: Coin): boolean {
    for (const webhook of this.webhooks.values()) if (webhook.coin === coin && webhook.allTokens) return true;
    return false;
  }

  /** Whether a webhook of `coin` has `pending` on (the mempool is read only then). */
  wantsPending(coin: Coin): boolean {
    for (const webhook of this.webhooks.values()) if (webhook.coin === coin && webhook.pending) return true;
    return false;
  }
}

/** Calls `each` for every webhook id in a watchers value. */
export function forEachWatcher(watchers: Watchers | undefined, each: (webhookId: number) => void): void {
  if (watchers === undefined) return;
  if (typeof watchers === "number") each(watchers);
  else for (const id of watchers) each(id);
}
