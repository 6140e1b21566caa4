/** A key's row by prefix: from the cache while the listener keeps it true, from Postgres otherwise. */
import type { KeyCache, KeyRow } from "./key-cache.ts";

export async function findKeyRow(cache: KeyCache, prefix: string): Promise<KeyRow | undefined> {
  const { options, rows, unknownPrefixes } = cache;
  if (!cache.listening) {
    options.onLookup?.("bypassed");
    return loadKeyRow(cache, prefix);
  }
  const cached = rows.get(prefix);
  if (cached || unknownPrefixes.has(prefix)) {
    options.onLookup?.("cached");
    return cached;
  }
  options.onLookup?.("database");
  const before = cache.invalidations;
  const row = await loadKeyRow(cache, prefix);
  if (cache.listening && cache.invalidations === before) {
    if (row) rows.set(prefix, row);
    else unknownPrefixes.set(prefix, true);
  }
  return row;
}

async function loadKeyRow({ options }: KeyCache, prefix: string): Promise<KeyRow | undefined> {
  const row = await options.db
    .selectFrom("api_keys")
    .select(["id", "account_id", "secret_hash", "active"])
    .where("prefix", "=", prefix)
    .executeTakeFirst();
  return row && { keyId: row.id, accountId: row.account_id, secretHash: row.secret_hash, active: row.active };
}
