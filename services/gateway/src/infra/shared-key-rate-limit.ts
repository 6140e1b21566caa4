/**
 * The opt-in rate limit per API key, one for all gateway replicas: every key has one token bucket
 * in the gateway's database (`key_rate_buckets`), and each replica leases a few tokens at a time
 * from it and spends them locally, so most requests never wait for the database.
 *
 * Bound: tokens only ever come out of the shared bucket, so all replicas together admit at most
 * the bucket's capacity (one second's worth) plus the refill. A lease not spent within
 * LEASE_TTL_MS is dropped (the key then admits a little less, never more). While the database
 * cannot be reached the replica falls back to its own bucket (the limit is then per replica) and
 * says so in its log.
 */
import type { Logger } from "@chaingate/logger";
import { sql, type Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import { createKeyRateLimit, MAX_TRACKED_KEYS, secondsUntilWholeToken } from "../domain/key-rate-limit.ts";
import type { GatewayDatabase } from "./database-schema.ts";

/** A lease is this share of one second's tokens (at least one): a replica holds at most that many unspent. */
const LEASE_SHARE_OF_RATE = 0.1;
/** Unspent leased tokens lapse after this: they must not pile up into a burst past the bucket's capacity. */
const LEASE_TTL_MS = 1_000;
/** Leases one request waits for at most, while other requests of its key spend each one first. */
const MAX_LEASE_ROUNDS = 5;
/**
 * After the database failed a lease, requests use the replica's own bucket this long before it is
 * asked again: during an outage a request must not wait for a connect timeout each time.
 */
const FALLBACK_MS = 1_000;
/** Database failures logged: the first, then one in this many. */
const LOG_EVERY_NTH_FAILURE = 100;

export interface SharedKeyRateLimit {
  /** Takes one request for the key: 0 when admitted, else the whole seconds until one would be (Retry-After). */
  take(keyId: number): number | Promise<number>;
}

interface Lease {
  tokens: number;
  expiresAtMs: number;
}

interface LeaseAnswer {
  granted: number;
  /** Seconds until the shared bucket holds a whole token again (when none was granted). */
  retryAfterSeconds: number;
}

export function createSharedKeyRateLimit(db: Kysely<GatewayDatabase>, requestsPerSecond: number, logger: Logger): SharedKeyRateLimit {
  const capacity = Math.max(1, requestsPerSecond);
  const leaseSize = Math.max(1, Math.floor(requestsPerSecond * LEASE_SHARE_OF_RATE));
  const leases = new LRUCache<number, Lease>({ max: MAX_TRACKED_KEYS });
  /** One lease request per key at a time: concurrent requests of a key wait for the same answer. */
  const leasing = new Map<number, Promise<LeaseAnswer>>();
  /** Requests of a key waiting for a lease now. */
  const waiting = new Map<number, number>();
  const fallback = createKeyRateLimit(requestsPerSecond);
  let failures = 0;
  /** Until then requests use the replica's own bucket without asking the database that just failed. */
  let fallbackUntilMs = 0;

  /** Refills the key's bucket to now and takes up to `wanted` whole tokens, in one atomic statement; undefined when the key has no bucket yet. */
  async function takeFromBucket(keyId: number, wanted: number): Promise<number | undefined> {
    const { rows } = await sql<{ refilled: number }>`
      with bucket as (
        select api_key_id, least(${capacity}::float8, tokens + greatest(0, extract(epoch from clock_timestamp() - refilled_at)) * ${requestsPerSecond}::float8) as refilled
          from key_rate_buckets where api_key_id = ${keyId} for update
      )
      update key_rate_buckets b set tokens = bucket.refilled - least(${wanted}::float8, floor(bucket.refilled)), refilled_at = clock_timestamp()
        from bucket where b.api_key_id = bucket.api_key_id
      returning bucket.refilled`.execute(db);
    return rows[0] === undefined ? undefined : Number(rows[0].refilled);
  }

  async function leaseTokens(keyId: number, wanted: number): Promise<LeaseAnswer> {
    let refilled = await takeFromBucket(keyId, wanted);
    if (refilled === undefined) {
      // The key's first lease (or the first after a crash emptied the unlogged table): a full bucket.
      await sql`insert into key_rate_buckets (api_key_id, tokens, refilled_at) values (${keyId}, ${capacity}, clock_timestamp())
                on conflict (api_key_id) do nothing`.execute(db);
      refilled = (await takeFromBucket(keyId, wanted)) ?? 0;
    }
    const granted = Math.min(wanted, Math.floor(refilled));
    return { granted, retryAfterSeconds: granted > 0 ? 0 : secondsUntilWholeToken(refilled, requestsPerSecond) };
  }

  function spendLeased(keyId: number, nowMs: number): boolean {
    const lease = leases.get(keyId);
    if (!lease || lease.tokens < 1 || lease.expiresAtMs <= nowMs) return false;
    lease.tokens -= 1;
    return true;
  }

  /**
   * The key's lease request in flight, or a new one for the requests waiting now (a burst takes what
   * it needs in one or two round trips); the lease is in place before any waiter resumes.
   */
  function requestLease(keyId: number): Promise<LeaseAnswer> {
    let pending = leasing.get(keyId);
    if (!pending) {
      const wanted = Math.min(capacity, Math.max(leaseSize, waiting.get(keyId) ?? 0));
      pending = leaseTokens(keyId, wanted)
        .then((answer) => {
          if (answer.granted > 0) leases.set(keyId, { tokens: answer.granted, expiresAtMs: performance.now() + LEASE_TTL_MS });
          return answer;
        })
        .finally(() => leasing.delete(keyId));
      leasing.set(keyId, pending);
    }
    return pending;
  }

  async function takeShared(keyId: number): Promise<number> {
    waiting.set(keyId, (waiting.get(keyId) ?? 0) + 1);
    try {
      return await takeLeased(keyId);
    } finally {
      const left = waiting.get(keyId)! - 1;
      if (left > 0) waiting.set(keyId, left);
      else waiting.delete(keyId);
    }
  }

  async function takeLeased(keyId: number): Promise<number> {
    for (let round = 0; round < MAX_LEASE_ROUNDS; round++) {
      let answer: LeaseAnswer;
      try {
        answer = await requestLease(keyId);
      } catch (error) {
        if (failures++ % LOG_EVERY_NTH_FAILURE === 0)
          logger.warn({ err: error }, "shared rate limit unavailable (database); limiting per replica until it answers");
        fallbackUntilMs = performance.now() + FALLBACK_MS;
        return fallback.take(keyId);
      }
      failures = 0;
      if (spendLeased(keyId, performance.now())) return 0;
      if (answer.granted === 0) return answer.retryAfterSeconds;
      // Requests that waited before this one spent the lease: ask again.
    }
    return 1;
  }

  return {
    take(keyId) {
      const nowMs = performance.now();
      if (spendLeased(keyId, nowMs)) return 0;
      return nowMs < fallbackUntilMs ? fallback.take(keyId) : takeShared(keyId);
    },
  };
}
