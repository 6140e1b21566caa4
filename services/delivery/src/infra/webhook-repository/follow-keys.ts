import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import { issuedByCurrentKey } from "./issued-by-current-key.ts";
import { watchKeyAddresses } from "./watch-key-addresses.ts";

/**
 * After `xpub_ids` changed (the caller holds the new keys' locks, see lockKeys): drops the
 * unlisted addresses no current key issued, watches what the current keys issued as far as
 * recorded (earlier issuances included, from now), and queues the keys' histories
 * (key-history-backfill.ts brings what was issued before recording began). Returns the added addresses.
 */
export async function followKeys(trx: Transaction<DeliveryDatabase>, webhookId: number): Promise<string[]> {
  await sql`
    delete from webhook_addresses a using webhooks w
     where w.id = ${webhookId} and a.webhook_id = w.id and not a.listed and not ${issuedByCurrentKey}`.execute(trx);
  await sql`
    insert into key_backfills (xpub_id, account_id, coin)
    select unnest(xpub_ids), account_id, coin from webhooks where id = ${webhookId}
    on conflict do nothing`.execute(trx);
  return watchKeyAddresses(trx, webhookId);
}
