import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** Advisory lock namespace (the first key) of "this key's issued addresses are being read or recorded". */
const KEY_LOCK_NAMESPACE = 0x6b657973;

/**
 * Locks the keys for the transaction, in id order. Whoever records an issued address (the
 * `address.issued` consumer, the history backfill) and whoever names a key (create, PUT) take it
 * before reading the other side, so one always sees the other's commit: without it a PUT naming a
 * key and an address of that key recorded at the same moment could each miss the other. Always
 * before any webhook row lock (the consumer finds its webhooks only after), so no deadlock.
 */
export async function lockKeys(trx: Transaction<DeliveryDatabase>, xpubIds: readonly number[]): Promise<void> {
  if (!xpubIds.length) return;
  const sorted = [...new Set(xpubIds)].sort((a, b) => a - b);
  // Volatile functions in the select list run after the sort (Postgres 9.6+): locks taken in order.
  await sql`select pg_advisory_xact_lock(${KEY_LOCK_NAMESPACE}, (k % 2147483647)::int) from unnest(${sorted}::bigint[]) as k order by k`.execute(
    trx,
  );
}
