import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/**
 * Watches on the webhook every recorded address its current keys issued that it does not watch yet
 * (`watchedSince`: when they count as watched, for the feed's `since`; now when omitted). Returns them.
 */
export async function watchKeyAddresses(trx: Transaction<DeliveryDatabase>, webhookId: number, watchedSince?: Date): Promise<string[]> {
  const { rows } = await sql<{ address: string }>`
    insert into webhook_addresses (webhook_id, address, listed, watched_since)
    select w.id, i.address, false, ${watchedSince ?? null}::timestamptz from webhooks w
      join issued_addresses i on i.xpub_id = any(w.xpub_ids) and i.account_id = w.account_id and i.coin = w.coin
     where w.id = ${webhookId}
    on conflict do nothing
    returning address`.execute(trx);
  return rows.map((row) => row.address);
}
