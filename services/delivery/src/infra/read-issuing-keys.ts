/**
 * The extended keys that issued the watched addresses of a batch of transfers: an address in
 * `issued_addresses` of the webhook's account and chain (the key's holder's, after a move).
 */
import { sql, type Transaction } from "kysely";
import { issuingKeyLookup, type IssuingKey } from "../domain/transfer-notification.ts";
import type { DeliveryDatabase } from "./database-schema.ts";

/** By `issuingKeyLookup(webhook, address)`; an address two keys of the account issued names the oldest key. */
export async function readIssuingKeys(
  trx: Transaction<DeliveryDatabase>,
  watched: ReadonlyArray<{ webhookId: number; address: string }>,
): Promise<Map<string, IssuingKey>> {
  const keys = new Map<string, IssuingKey>();
  if (!watched.length) return keys;
  // Issued Ethereum addresses are stored lower-case; a webhook may list them checksummed.
  const pairs = watched.flatMap(({ webhookId, address }) =>
    address === address.toLowerCase()
      ? [[webhookId, address] as const]
      : [[webhookId, address] as const, [webhookId, address.toLowerCase()] as const],
  );
  const { rows } = await sql<{ webhook_id: number; address: string; xpub_id: number; address_index: number | null }>`
    select e.webhook_id, e.address, i.xpub_id, i.address_index
      from unnest(${pairs.map(([id]) => id)}::bigint[], ${pairs.map(([, address]) => address)}::text[]) as e(webhook_id, address)
      join webhooks w on w.id = e.webhook_id
      join issued_addresses i on i.address = e.address and i.account_id = w.account_id and i.coin = w.coin
     order by i.xpub_id`.execute(trx);
  for (const row of rows) {
    const lookup = issuingKeyLookup(Number(row.webhook_id), row.address);
    if (!keys.has(lookup))
      keys.set(lookup, { id: Number(row.xpub_id), index: row.address_index === null ? null : Number(row.address_index) });
  }
  return keys;
}
