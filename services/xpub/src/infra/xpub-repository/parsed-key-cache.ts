import type { IssuedAddressOf, KeyScheme, ParsedAccountKey } from "../../domain/key-scheme.ts";

/** Parsed keys kept in memory: parsing re-validates the point, which is wasted work under the row lock. */
const PARSED_KEY_CACHE_SIZE = 1_000;

/** Parses a record's stored key, remembering the newest parses by record id (the oldest is dropped when full). */
export function createParsedKeyCache<Key extends ParsedAccountKey, Issued extends IssuedAddressOf>(
  scheme: KeyScheme<Key, Issued>,
): (keyId: number, source: string) => Key {
  const parsedKeys = new Map<number, { source: string; key: Key }>();
  return (keyId, source) => {
    let entry = parsedKeys.get(keyId);
    if (entry?.source !== source) {
      entry = { source, key: scheme.parse(source) };
      if (parsedKeys.size >= PARSED_KEY_CACHE_SIZE) parsedKeys.delete(parsedKeys.keys().next().value!);
      parsedKeys.set(keyId, entry);
    }
    return entry.key;
  };
}
