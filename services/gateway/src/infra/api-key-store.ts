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
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import { apiKeyMatches, apiKeyPrefix, isWellFormedApiKey } from "../domain/api-key.ts";
import { API_KEYS_CHANNEL, type GatewayDatabase } from "./database-schema.ts";

export const DEFAULT_KEY_CACHE_SIZE = 10_000;
/** The bound on how long a replica that missed a deactivation's NOTIFY may still accept the key. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;
export const DEFAULT_LISTENER_PROBE_INTERVAL_MS = 5_000;
/** Unknown prefixes: enough to absorb a client retrying a mistyped key, too few to matter to memory. */
const NEGATIVE_CACHE_SIZE = 1_000;
const NEGATIVE_CACHE_TTL_MS = 5_000;
const RECONNECT_DELAY_MS = 1_000;
/** The LISTEN connection's application_name (pg_stat_activity; the tests' proxy recognises it by it). */
export const KEY_LISTENER_APPLICATION_NAME = "chaingate-gateway-key-listener";
/** Payloads starting with this are the listener's own probes, not key changes. */
const PROBE_PAYLOAD_PREFIX = "probe:";

export interface AuthenticatedKey {
  keyId: number;
  accountId: number;
}

interface KeyRow {
  keyId: number;
  accountId: number;
  secretHash: Buffer;
  active: boolean;
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
  const probeIntervalMs = options.probeIntervalMs ?? DEFAULT_LISTENER_PROBE_INTERVAL_MS;
  const rows = new LRUCache<string, KeyRow>({ max: options.cacheSize ?? DEFAULT_KEY_CACHE_SIZE, ttl: ttlMs });
  const unknownPrefixes = new LRUCache<string, true>({ max: NEGATIVE_CACHE_SIZE, ttl: Math.min(NEGATIVE_CACHE_TTL_MS, ttlMs) });
  let listening = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  // Bumped by every notification: a row read that straddles one is not cached (it may be stale).
  let invalidations = 0;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  // The probe in flight: its payload and what to call when it comes back.
  let pendingProbe: { payload: string; arrived(): void } | undefined;

  function evict(prefix: string): void {
    invalidations++;
    rows.delete(prefix);
    unknownPrefixes.delete(prefix);
  }

  function clearCaches(): void {
    rows.clear();
    unknownPrefixes.clear();
  }

  function connectListener(): void {
    if (closed) return;
    const client = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      application_name: KEY_LISTENER_APPLICATION_NAME,
    });
    listener = client;
    client.on("notification", (message) => {
      const payload = message.payload ?? "";
      if (payload.startsWith(PROBE_PAYLOAD_PREFIX)) {
        if (pendingProbe?.payload === payload) pendingProbe.arrived();
        return;
      }
      if (payload) evict(payload);
      else {
        invalidations++;
        clearCaches();
      }
    });
    client.on("error", (error) => dropListener(client, error));
    client.on("end", () => dropListener(client, new Error("key-change listener connection ended")));
    client
      .connect()
      .then(() => client.query(`LISTEN ${API_KEYS_CHANNEL}`))
      .then(() => {
        if (listener !== client) return;
        // Rows cached before this point may have missed a notification.
        clearCaches();
        invalidations++;
        listening = true;
        probeTimer = setInterval(() => void probe(client), probeIntervalMs);
        probeTimer.unref();
        markReady();
      })
      .catch((error: unknown) => dropListener(client, error));
  }

  /** A NOTIFY sent on the listener's own connection must come back on it within the interval. */
  async function probe(client: pg.Client): Promise<void> {
    if (listener !== client || pendingProbe) return;
    const payload = `${PROBE_PAYLOAD_PREFIX}${randomBytes(8).toString("hex")}`;
    let timer: NodeJS.Timeout | undefined;
    const cameBack = new Promise<boolean>((resolve) => {
      pendingProbe = { payload, arrived: () => resolve(true) };
      timer = setTimeout(() => resolve(false), probeIntervalMs);
    });
    client.query("select pg_notify($1, $2)", [API_KEYS_CHANNEL, payload]).catch(() => {});
    const ok = await cameBack;
    clearTimeout(timer);
    pendingProbe = undefined;
    if (!ok) dropListener(client, new Error(`key-change listener probe got no answer within ${probeIntervalMs} ms`));
  }

  function dropListener(client: pg.Client, error: unknown): void {
    if (listener !== client) return;
    listener = undefined;
    listening = false;
    clearInterval(probeTimer);
    clearCaches();
    options.onListenError?.(error);
    // A stalled socket would make end() wait for the server: cut it.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    client.end().catch(() => {});
    if (!closed) setTimeout(connectListener, RECONNECT_DELAY_MS).unref();
  }
  connectListener();

  async function loadRow(prefix: string): Promise<KeyRow | undefined> {
    const row = await options.db
      .selectFrom("api_keys")
      .select(["id", "account_id", "secret_hash", "active"])
      .where("prefix", "=", prefix)
      .executeTakeFirst();
    return row && { keyId: row.id, accountId: row.account_id, secretHash: row.secret_hash, active: row.active };
  }

  async function findRow(prefix: string): Promise<KeyRow | undefined> {
    if (!listening) {
      options.onLookup?.("bypassed");
      return loadRow(prefix);
    }
    const cached = rows.get(prefix);
    if (cached || unknownPrefixes.has(prefix)) {
      options.onLookup?.("cached");
      return cached;
    }
    options.onLookup?.("database");
    const before = invalidations;
    const row = await loadRow(prefix);
    if (listening && invalidations === before) {
      if (row) rows.set(prefix, row);
      else unknownPrefixes.set(prefix, true);
    }
    return row;
  }

  return {
    ready,
    forget: evict,
    caching: () => listening,
    async authenticate(key) {
      if (!isWellFormedApiKey(key)) return undefined;
      const row = await findRow(apiKeyPrefix(key));
      if (!apiKeyMatches(key, row?.secretHash) || !row?.active) return undefined;
      return { keyId: row.keyId, accountId: row.accountId };
    },
    async close() {
      closed = true;
      clearInterval(probeTimer);
      const client = listener;
      listener = undefined;
      listening = false;
      await client?.end().catch(() => {});
    },
  };
}
