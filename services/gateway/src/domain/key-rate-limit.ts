/**
 * The opt-in request rate limit per API key (RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND; off by
 * default, since the spec's v1 has none) and per account (RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND):
 * a token bucket per key or account holding one second's worth of requests, refilled
 * continuously. This is one replica's buckets, in memory: the shared limit
 * (infra/shared-rate-limit.ts) falls back to it while its database is unreachable.
 */
import { LRUCache } from "lru-cache";

/** Buckets kept; past it the least recently used is forgotten (it comes back full, as an idle one's would be). */
export const MAX_TRACKED_KEYS = 100_000;

export interface KeyRateLimit {
  /** Takes one request for the key or account `id` at `nowMs`: 0 when admitted, else the whole seconds until one would be (Retry-After). */
  take(id: number, nowMs?: number): number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

export function createKeyRateLimit(requestsPerSecond: number): KeyRateLimit {
  const buckets = new LRUCache<number, Bucket>({ max: MAX_TRACKED_KEYS });
  const capacity = Math.max(1, requestsPerSecond);
  return {
    take(id, nowMs = performance.now()) {
      const bucket = buckets.get(id) ?? { tokens: capacity, atMs: nowMs };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.atMs) / 1000) * requestsPerSecond);
      bucket.atMs = nowMs;
      buckets.set(id, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return secondsUntilWholeToken(bucket.tokens, requestsPerSecond);
    },
  };
}

/** Retry-After for a bucket holding `tokens` (less than one), refilled at `requestsPerSecond`: whole seconds, at least 1. */
export function secondsUntilWholeToken(tokens: number, requestsPerSecond: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / requestsPerSecond));
}

const afterSeconds = (seconds: number) => `retry after ${seconds} ${seconds === 1 ? "second" : "seconds"}`;

/** The 429 body of the per-key limit (`{message}`, as the gateway's other refusals). */
export function rateLimitedMessage(requestsPerSecond: number, retryAfterSeconds: number): string {
  return `Too many requests for this API key: the limit is ${requestsPerSecond} per second (RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND); ${afterSeconds(retryAfterSeconds)}.`;
}

/** The 429 body of the per-account limit. */
export function accountRateLimitedMessage(requestsPerSecond: number, retryAfterSeconds: number): string {
  return `Too many requests for this account: the limit is ${requestsPerSecond} per second over all its keys (RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND); ${afterSeconds(retryAfterSeconds)}.`;
}
