/**
 * How a webhook's addresses are split into buckets for the watch feed, so no message nears NATS's
 * 1 MB payload limit whatever the webhook's size.
 *
 * Every address has a 16-bit bucket hash: the first 16 bits of the MD5 of its stored form. The
 * registry computes it in Postgres (a generated column,
 * `('x' || substr(md5(address), 1, 4))::bit(16)::int`) and `bucketHash` below is the same function.
 * A webhook publishes at a level of `bucket_bits` (0..16): its bucket b holds the addresses whose
 * hash's top `bucket_bits` bits are b, so the buckets of one level nest inside those of the level
 * below. The level is the smallest one with at most ADDRESSES_PER_BUCKET addresses per bucket on
 * average: a 1,000-address webhook is one message (as before), a 1,000,000-address one is 1,024
 * messages of about 1,000 addresses (~45 KB each). The level only grows.
 */
import { createHash } from "node:crypto";

export const BUCKET_HASH_BITS = 16;
export const MAX_BUCKET_BITS = BUCKET_HASH_BITS;
/** Average addresses per bucket message at most (about 45 KB of JSON for 42-character addresses). */
export const ADDRESSES_PER_BUCKET = 1_024;

/**
 * Most addresses one bucket may hold. 8,000 of the longest valid addresses (90-character bech32,
 * 93 bytes of JSON each) are 744 KB, under NATS's 1 MB payload limit. Addresses spread by the hash
 * never come near it (a bucket averages at most ADDRESSES_PER_BUCKET, the fullest of 1,024 about
 * 1,150); only addresses chosen to collide can, and the registry refuses them with a 422.
 */
export const MAX_ADDRESSES_PER_BUCKET = 8_000;

/** The smallest level at which `addressCount` addresses average at most ADDRESSES_PER_BUCKET per bucket. */
export function bucketBitsFor(addressCount: number): number {
  let bits = 0;
  while (bits < MAX_BUCKET_BITS && addressCount > ADDRESSES_PER_BUCKET * 2 ** bits) bits++;
  return bits;
}

/** The 16-bit bucket hash of an address as the registry stores it (same as its Postgres column). */
export function bucketHash(address: string): number {
  return createHash("md5").update(address, "utf8").digest().readUInt16BE(0);
}

/** The bucket of a bucket hash at level `bits`. */
export function bucketOf(hash: number, bits: number): number {
  return hash >>> (BUCKET_HASH_BITS - bits);
}
