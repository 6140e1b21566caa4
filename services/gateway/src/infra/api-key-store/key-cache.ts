/**
 * The state of one ApiKeyStore: the two LRU caches (known rows and unknown prefixes), the
 * invalidation counter a row read is checked against, and the listener that keeps them true.
 */
import type { LRUCache } from "lru-cache";
import type pg from "pg";
import type { ApiKeyStoreOptions } from "../api-key-store.ts";

export interface KeyRow {
  keyId: number;
  accountId: number;
  secretHash: Buffer;
  active: boolean;
}

export interface KeyCache {
  readonly options: ApiKeyStoreOptions;
  readonly probeIntervalMs: number;
  readonly rows: LRUCache<string, KeyRow>;
  readonly unknownPrefixes: LRUCache<string, true>;
  /** The cache is in use: the listener is connected and its last probe came back. */
  listening: boolean;
  closed: boolean;
  listener: pg.Client | undefined;
  probeTimer: NodeJS.Timeout | undefined;
  // Bumped by every notification: a row read that straddles one is not cached (it may be stale).
  invalidations: number;
  /** Resolves the store's `ready`. */
  readonly markReady: () => void;
  // The probe in flight: its payload and what to call when it comes back.
  pendingProbe: { payload: string; arrived(): void } | undefined;
}

/** Drops the prefix's cached rows, known or unknown; a read under way is not cached. */
export function evict(cache: KeyCache, prefix: string): void {
  cache.invalidations++;
  cache.rows.delete(prefix);
  cache.unknownPrefixes.delete(prefix);
}

export function clearCaches(cache: KeyCache): void {
  cache.rows.clear();
  cache.unknownPrefixes.clear();
}
