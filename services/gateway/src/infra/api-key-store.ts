/**
 * Finds the account behind an API key. Rows are cached by key prefix for the hot path and evicted
 * by Postgres NOTIFY when a key is created or changed, so a deactivation reaches every replica
 * within a notification's latency. While the LISTEN connection is down the cache is bypassed:
 * a stale "active" is never served.
 */
import type { Kysely } from "kysely";
import pg from "pg";
import { apiKeyMatches, apiKeyPrefix, isWellFormedApiKey } from "../domain/api-key.ts";
import { API_KEYS_CHANNEL, type GatewayDatabase } from "./database-schema.ts";

export const DEFAULT_KEY_CACHE_SIZE = 10_000;
const RECONNECT_DELAY_MS = 1_000;

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
  onListenError?(error: unknown): void;
}

export interface ApiKeyStore {
  /** The key's owner, or undefined for a malformed, unknown or inactive key. */
  authenticate(key: string): Promise<AuthenticatedKey | undefined>;
  /** Resolves once the invalidation listener is connected (the cache is in use from then on). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function createApiKeyStore(options: ApiKeyStoreOptions): ApiKeyStore {
  const cacheSize = options.cacheSize ?? DEFAULT_KEY_CACHE_SIZE;
  // prefix → row, or null for "no such prefix" (negative entries are evicted by NOTIFY too).
  const cache = new Map<string, KeyRow | null>();
  let listening = false;
  let closed = false;
  let listener: pg.Client | undefined;
  // Bumped by every notification: a row read that straddles one is not cached (it may be stale).
  let invalidations = 0;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  function connectListener(): void {
    if (closed) return;
    const client = new pg.Client({ connectionString: options.connectionString });
    listener = client;
    client.on("notification", (message) => {
      invalidations++;
      if (message.payload) cache.delete(message.payload);
      else cache.clear();
    });
    client.on("error", (error) => dropListener(client, error));
    client.on("end", () => dropListener(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${API_KEYS_CHANNEL}`))
      .then(() => {
        if (listener !== client) return;
        // Rows cached before this point may have missed a notification.
        cache.clear();
        invalidations++;
        listening = true;
        markReady();
      })
      .catch((error: unknown) => dropListener(client, error));
  }

  function dropListener(client: pg.Client, error?: unknown): void {
    if (listener !== client) return;
    listener = undefined;
    listening = false;
    cache.clear();
    if (error) options.onListenError?.(error);
    client.end().catch(() => {});
    if (!closed) setTimeout(connectListener, RECONNECT_DELAY_MS).unref();
  }
  connectListener();

  async function loadRow(prefix: string): Promise<KeyRow | null> {
    const row = await options.db
      .selectFrom("api_keys")
      .select(["id", "account_id", "secret_hash", "active"])
      .where("prefix", "=", prefix)
      .executeTakeFirst();
    return row ? { keyId: row.id, accountId: row.account_id, secretHash: row.secret_hash, active: row.active } : null;
  }

  async function findRow(prefix: string): Promise<KeyRow | null> {
    if (!listening) return loadRow(prefix);
    const cached = cache.get(prefix);
    if (cached !== undefined) return cached;
    const before = invalidations;
    const row = await loadRow(prefix);
    if (listening && invalidations === before) {
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(prefix, row);
    }
    return row;
  }

  return {
    ready,
    async authenticate(key) {
      if (!isWellFormedApiKey(key)) return undefined;
      const row = await findRow(apiKeyPrefix(key));
      if (!apiKeyMatches(key, row?.secretHash) || !row?.active) return undefined;
      return { keyId: row.keyId, accountId: row.accountId };
    },
    async close() {
      closed = true;
      const client = listener;
      listener = undefined;
      listening = false;
      await client?.end().catch(() => {});
    },
  };
}
