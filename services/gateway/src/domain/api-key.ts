/**
 * API keys: 40 alphanumeric characters, shown once. The first 8 are a public prefix that finds the
 * row; the whole key is stored only as its SHA-256 and compared in constant time.
 */
import { hash, randomInt, timingSafeEqual } from "node:crypto";

export const API_KEY_LENGTH = 40;
export const API_KEY_PREFIX_LENGTH = 8;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const API_KEY_PATTERN = /^[A-Za-z0-9]{40}$/;
/** Compared against when no row matches, so a miss costs what a hit costs. */
const DUMMY_HASH = hashApiKey("0".repeat(API_KEY_LENGTH));

/** A fresh key from the CSPRNG (randomInt is unbiased over the 62-letter alphabet). */
export function generateApiKey(): string {
  let key = "";
  for (let i = 0; i < API_KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}

/** 40 random alphanumerics carry ~238 bits: a fast hash is enough, no password stretching. */
export function hashApiKey(key: string): Buffer {
  return hash("sha256", key, "buffer");
}

/** Constant-time check of `key` against a stored hash (or the dummy one when there is none). */
export function apiKeyMatches(key: string, storedHash: Buffer | undefined): boolean {
  const candidate = hashApiKey(key);
  const expected = storedHash && storedHash.length === candidate.length ? storedHash : DUMMY_HASH;
  return timingSafeEqual(candidate, expected) && expected !== DUMMY_HASH;
}
