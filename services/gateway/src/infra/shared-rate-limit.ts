/**
 * The opt-in rate limit per API key or per account, one for all gateway replicas: every key (or
 * account) has one token bucket in the gateway's database (`key_rate_buckets`,
 * `account_rate_buckets`), and each replica leases a few tokens at a time from it and spends them
 * locally, so most requests never wait for the database.
 *
 * Bound: tokens only ever come out of the shared bucket, so all replicas together admit at most
 * the bucket's capacity (one second's worth) plus the refill. A lease not spent within
 * LEASE_TTL_MS is dropped (the bucket then admits a little less, never more). While the database
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
/** Leases one request waits for at most, while other requests of its bucket spend each one first. */
const MAX_LEASE_ROUNDS = 5;
/**
 * After the database failed a lease, requests use the replica's own bucket this long before it is
 * asked again: during an outage a request must not wait for a connect timeout each time.
 */
const FALLBACK_MS = 1_000;
/** Database failures logged: the first, then one in this many. */
const LOG_EVERY_NTH_FAILURE = 100;

/** What a limit counts: each API key's requests, or each account's over all its keys. */
export type RateLimitBuckets = "key" | "account";

/** The table of each kind of bucket and the column of the id it is kept by. */
const BUCKET_TABLES = {
  key: { table: "key_rate_buckets", id: "api_key_id" },
  account: { table: "account_rate_buckets", id: "account_id" },
} as const satisfies Record<RateLimitBuckets, { table: string; id: string }>;

export interface SharedRateLimit {
  /** Takes one request for the key or account `id`: 0 when admitted, else the whole seconds until one would be (Retry-After). */
  take(id: number): number | Promise<number>;
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

/** Refills the bucket of `id` to now and takes up to `wanted` whole tokens, in one atomic statement; undefined when it has no bucket yet. */
async function takeFromBucket(
  db: Kysely<GatewayDatabase>,
  buckets: RateLimitBuckets,
  requestsPerSecond: number,
  id: number,
  wanted: number,
): Promise<number | undefined> {
  const [table, idColumn] = [sql.id(BUCKET_TABLES[buckets].table), sql.id(BUCKET_TABLES[buckets].id)];
  const capacity = Math.max(1, requestsPerSecond);
  const { rows } = await sql<{ refilled: number }>`
    with bucket as (
      select ${idColumn} as id, least(${capacity}::float8, tokens + greatest(0, extract(epoch from clock_timestamp() - refilled_at)) * ${requestsPerSecond}::float8) as refilled
        from ${table} where ${idColumn} = ${id} for update
    )
    update ${table} b set tokens = bucket.refilled - least(${wanted}::float8, floor(bucket.refilled)), refilled_at = clock_timestamp()
      from bucket where b.${idColumn} = bucket.id
    returning bucket.refilled`.execute(db);
  return rows[0] === undefined ? undefined : Number(rows[0].refilled);
}

/** Up to `wanted` tokens from the shared bucket of `id` (made full on its first use). */
async function leaseFromBucket(
  db: Kysely<GatewayDatabase>,
  buckets: RateLimitBuckets,
  requestsPerSecond: number,
  id: number,
  wanted: number,
): Promise<LeaseAnswer> {
  let refilled = await takeFromBucket(db, buckets, requestsPerSecond, id, wanted);
  if (refilled === undefined) {
    // The first lease of this id (or the first after a crash emptied the unlogged table): a full bucket.
    const [table, idColumn] = [sql.id(BUCKET_TABLES[buckets].table), sql.id(BUCKET_TABLES[buckets].id)];
    await sql`insert into ${table} (${idColumn}, tokens, refilled_at) values (${id}, ${Math.max(1, requestsPerSecond)}, clock_timestamp())
              on conflict (${idColumn}) do nothing`.execute(db);
    refilled = (await takeFromBucket(db, buckets, requestsPerSecond, id, wanted)) ?? 0;
  }
  const granted = Math.min(wanted, Math.floor(refilled));
  return { granted, retryAfterSeconds: granted > 0 ? 0 : secondsUntilWholeToken(refilled, requestsPerSecond) };
}

export function createSharedRateLimit(
  db: Kysely<GatewayDatabase>,
  requestsPerSecond: number,
  logger: Logger,
  buckets: RateLimitBuckets = "key",
): SharedRateLimit {
  const capacity = Math.max(1, requestsPerSecond);
  const leaseSize = Math.max(1, Math.floor(requestsPerSecond * LEASE_SHARE_OF_RATE));
  const leases = new LRUCache<number, Lease>({ max: MAX_TRACKED_KEYS });
  /** One lease request per bucket at a time: concurrent requests of a bucket wait for the same answer. */
  const leasing = new Map<number, Promise<LeaseAnswer>>();
  /** Requests of a bucket waiting for a lease now. */
  const waiting = new Map<number, number>();
  const fallback = createKeyRateLimit(requestsPerSecond);
  let failures = 0;
  /** Until then requests use the replica's own bucket without asking the database that just failed. */
  let fallbackUntilMs = 0;

  function spendLeased(id: number, nowMs: number): boolean {
    const lease = leases.get(id);
    if (!lease || lease.tokens < 1 || lease.expiresAtMs <= nowMs) return false;
    lease.tokens -= 1;
    return true;
  }

  /**
   * The bucket's lease request in flight, or a new one for the requests waiting now (a burst takes what
   * it needs in one or two round trips); the lease is in place before any waiter resumes.
   */
  function requestLease(id: number): Promise<LeaseAnswer> {
    let pending = leasing.get(id);
    if (!pending) {
      const wanted = Math.min(capacity, Math.max(leaseSize, waiting.get(id) ?? 0));
      pending = leaseFromBucket(db, buckets, requestsPerSecond, id, wanted)
        .then((answer) => {
          if (answer.granted > 0) leases.set(id, { tokens: answer.granted, expiresAtMs: performance.now() + LEASE_TTL_MS });
          return answer;
        })
        .finally(() => leasing.delete(id));
      leasing.set(id, pending);
    }
    return pending;
  }

  function leave(id: number): void {
    const left = waiting.get(id)! - 1;
    if (left > 0) waiting.set(id, left);
    else waiting.delete(id);
  }

  async function takeShared(id: number): Promise<number> {
    waiting.set(id, (waiting.get(id) ?? 0) + 1);
    let result: number | undefined;
    try {
      result = await takeLeased(id);
      return result;
    } finally {
      // Left already when it had its answer (see takeLeased); here only when it threw.
      if (result === undefined) leave(id);
    }
  }

  /**
   * A request stops counting as waiting in the same step as it gets its answer: the requests that
   * resume after it on the same lease size their next lease by the count, and one counted a moment
   * too long would lease a token nobody here spends (stranded until it lapses, refused elsewhere).
   */
  async function takeLeased(id: number): Promise<number> {
    const answered = (wait: number) => (leave(id), wait);
    for (let round = 0; round < MAX_LEASE_ROUNDS; round++) {
      let answer: LeaseAnswer;
      try {
        answer = await requestLease(id);
      } catch (error) {
        if (failures++ % LOG_EVERY_NTH_FAILURE === 0)
          logger.warn(
            { err: error },
            `shared rate limit unavailable (database); limiting per replica until it answers (${buckets} buckets)`,
          );
        fallbackUntilMs = performance.now() + FALLBACK_MS;
        return answered(fallback.take(id));
      }
      failures = 0;
      if (spendLeased(id, performance.now())) return answered(0);
      if (answer.granted === 0) return answered(answer.retryAfterSeconds);
      // Requests that waited before this one spent the lease: ask again.
    }
    return answered(1);
  }

  return {
    take(id) {
      const nowMs = performance.now();
      if (spendLeased(id, nowMs)) return 0;
      return nowMs < fallbackUntilMs ? fallback.take(id) : takeShared(id);
    },
  };
}
