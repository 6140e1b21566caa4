/**
 * Finds the account behind an API key. Rows are cached by key prefix for the hot path and evicted
 * by Postgres NOTIFY when a key is created or changed.
 *
 * Invariants that keep revocation true (no step of it depends on a NOTIFY arriving in time):
 * - The replica that changes a key evicts it from its own cache before it answers (`forget`), so
 *   there a deactivation fails the very next request.
 * - Every cached row expires after `ttlMs` (API_KEY_CACHE_TTL_MS, default 5 s) whatever happens:
 *   every other replica refuses a deactivated key within that bound even if the NOTIFY is lost;
 *   normally it does within the notification's latency.
 * - The cache is used only while the LISTEN connection is known to work. It is probed every
 *   `probeIntervalMs` (a NOTIFY sent on that very connection must come back on it within the
 *   deadline), so a terminated backend or a stalled, half-open socket is noticed within one probe;
 *   until it is back, every lookup reads Postgres, and a reconnect starts from an empty cache.
 * - A row read that straddles an eviction (a notification or `forget`) is not cached.
 * - Lookups of unknown prefixes are cached apart, few and briefly: a flood of random keys cannot
 *   evict the real keys (both caches are LRU).
 *
 * The parts live in api-key-store/: key-cache.ts (the caches and their state),
 * key-change-listener.ts (LISTEN, probes, reconnects), find-key-row.ts (a lookup).
 */
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import { apiKeyMatches, apiKeyPrefix, isWellFormedApiKey } from "../domain/api-key.ts";
import { findKeyRow } from "./api-key-store/find-key-row.ts";
import { evict, type KeyCache, type KeyRow } from "./api-key-store/key-cache.ts";
import { closeListener, connectListener } from "./api-key-store/key-change-listener.ts";
import type { GatewayDatabase } from "./database-schema.ts";

export { KEY_LISTENER_APPLICATION_NAME } from "./api-key-store/key-change-listener.ts";

export const DEFAULT_KEY_CACHE_SIZE = 10_000;
/** The bound on how long a replica that missed a deactivation's NOTIFY may still accept the key. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;
export const DEFAULT_LISTENER_PROBE_INTERVAL_MS = 5_000;
/** Unknown prefixes: enough to absorb a client retrying a mistyped key, too few to matter to memory. */
const NEGATIVE_CACHE_SIZE = 1_000;
const NEGATIVE_CACHE_TTL_MS = 5_000;

export interface AuthenticatedKey {
  keyId: number;
  accountId: number;
}

export interface ApiKeyStoreOptions {
  db: Kysely<GatewayDatabase>;
  /** A connection string for the dedicated LISTEN connection. */
  connectionString: string;
  cacheSize?: number;
  ttlMs?: number;
  probeIntervalMs?: number;
  onListenError?(error: unknown): void;
  /** Told how each lookup was answered (metrics). */
  onLookup?(result: "cached" | "database" | "bypassed"): void;
}

export interface ApiKeyStore {
  /** The key's owner, or undefined for a malformed, unknown or inactive key. Throws DatabaseUnavailableError while Postgres is down. */
  authenticate(key: string): Promise<AuthenticatedKey | undefined>;
  /**
   * Drops the key's cached rows now. Called by the replica that created or changed the key, after
   * the commit and before it answers: its next request must not wait for the NOTIFY.
   */
  forget(prefix: string): void;
  /** Resolves once the invalidation listener is connected (the cache is in use from then on). */
  ready: Promise<void>;
  /** Whether the cache is in use (the listener is connected and its last probe came back). */
  caching(): boolean;
  close(): Promise<void>;
}

export function createApiKeyStore(options: ApiKeyStoreOptions): ApiKeyStore {
  const ttlMs = options.ttlMs ?? DEFAULT_KEY_CACHE_TTL_MS;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const cache: KeyCache = {
    options,
    probeIntervalMs: options.probeIntervalMs ?? DEFAULT_LISTENER_PROBE_INTERVAL_MS,
    rows: new LRUCache<string, KeyRow>({ max: options.cacheSize ?? DEFAULT_KEY_CACHE_SIZE, ttl: ttlMs }),
    unknownPrefixes: new LRUCache<string, true>({ max: NEGATIVE_CACHE_SIZE, ttl: Math.min(NEGATIVE_CACHE_TTL_MS, ttlMs) }),
    listening: false,
    closed: false,
    listener: undefined,
    probeTimer: undefined,
    invalidations: 0,
    markReady,
    pendingProbe: undefined,
  };
  connectListener(cache);

  return {
    ready,
    forget: (prefix) => evict(cache, prefix),
    caching: () => cache.listening,
    async authenticate(key) {
      if (!isWellFormedApiKey(key)) return undefined;
      const row = await findKeyRow(cache, apiKeyPrefix(key));
      if (!apiKeyMatches(key, row?.secretHash) || !row?.active) return undefined;
      return { keyId: row.keyId, accountId: row.accountId };
    },
    close: () => closeListener(cache),
  };
}
