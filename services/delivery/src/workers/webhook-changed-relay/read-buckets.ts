import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../../infra/database-schema.ts";

/**
 * How long an address watched from before its insert (issued while its event travelled, or brought
 * by a key's history) keeps its time as the `since` of its bucket's later versions. The stream keeps
 * only a bucket's newest message, so a scanner whose feed lagged may never read the version that
 * added the address; the next version still tells it how far back to rescan. Longer than a scanner's
 * feed plausibly lags while its followers match blocks (a scanner that is down matches nothing); the
 * cost is that addresses added next to it in that hour are rescanned from that earlier time, so it
 * is kept short: the spec promises no replay of blocks from before an address was watched.
 */
const LATE_SINCE_CARRIED_MS = 60 * 60 * 1000;

/** Buckets at `bits` holding at least one address. */
export async function readNonEmptyBuckets(trx: Transaction<DeliveryDatabase>, webhookId: number, bits: number): Promise<number[]> {
  const { rows } = await sql<{ bucket: number }>`
    select distinct bucket_hash >> (16 - ${bits}::int) as bucket from webhook_addresses where webhook_id = ${webhookId}`.execute(trx);
  return rows.map((row) => row.bucket);
}

/**
 * The buckets' whole lists with the version and level they were read at (one statement: one
 * snapshot), and per bucket the earliest `watched_since` of its addresses watched from before
 * their insert within LATE_SINCE_CARRIED_MS.
 */
export async function readBuckets(trx: Transaction<DeliveryDatabase>, webhookId: number, buckets: readonly number[]) {
  const { rows } = await sql<{ version: string; bucket_bits: number; bucket: number; addresses: string[]; late_since: Date | null }>`
    select w.version, w.bucket_bits, b.bucket, coalesce(listed.addresses, '{}') as addresses, listed.late_since
      from webhooks w cross join unnest(${buckets}::int[]) as b(bucket)
      cross join lateral (
        select array_agg(a.address order by a.address) as addresses,
               min(a.watched_since) filter (where a.watched_since > now() - make_interval(secs => ${LATE_SINCE_CARRIED_MS / 1000})) as late_since
          from webhook_addresses a
         where a.webhook_id = w.id
           and a.bucket_hash >= b.bucket << (16 - w.bucket_bits)
           and a.bucket_hash < (b.bucket + 1) << (16 - w.bucket_bits)) as listed
     where w.id = ${webhookId}`.execute(trx);
  return rows;
}
