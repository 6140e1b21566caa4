import { BUCKET_HASH_BITS, MAX_ADDRESSES_PER_BUCKET, bucketBitsFor, bucketHash, bucketOf } from "@chaingate/contracts";
import { ValidationError } from "@chaingate/errors";
import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/**
 * Refuses (422, rolling the write back) when a bucket the written addresses fall in would hold
 * more than MAX_ADDRESSES_PER_BUCKET at the level the webhook is about to be published at: its
 * feed message would not fit in NATS. Only addresses chosen to collide get there.
 */
export async function checkBucketSizes(trx: Transaction<DeliveryDatabase>, webhookId: number, written: readonly string[]): Promise<void> {
  if (!written.length) return;
  // address_count is kept by the address table's statement triggers, so it already counts this write.
  const { bucket_bits: stored, address_count: count } = await trx
    .selectFrom("webhooks")
    .select(["bucket_bits", "address_count"])
    .where("id", "=", webhookId)
    .executeTakeFirstOrThrow();
  if (count <= MAX_ADDRESSES_PER_BUCKET) return;
  const bits = Math.max(stored, bucketBitsFor(count));
  const shift = BUCKET_HASH_BITS - bits;
  const touched = [...new Set(written.map((address) => bucketOf(bucketHash(address), bits)))];
  const { rows } = await sql<{ bucket: number }>`
    select bucket_hash >> ${shift}::int as bucket from webhook_addresses
     where webhook_id = ${webhookId} and bucket_hash >> ${shift}::int = any(${touched}::int[])
     group by 1 having count(*) > ${MAX_ADDRESSES_PER_BUCKET} limit 1`.execute(trx);
  if (rows.length) {
    throw new ValidationError({
      addresses: [
        `More than ${MAX_ADDRESSES_PER_BUCKET} of this webhook's addresses fall into one bucket of the watch feed; spread these addresses over several webhooks.`,
      ],
    });
  }
}
