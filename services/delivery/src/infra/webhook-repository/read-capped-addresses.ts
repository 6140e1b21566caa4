import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import type { WebhookRecord } from "./webhook-record.ts";

/** Most address rows one statement of the list answer reads (5 webhooks at the list's cap of 1,000). */
export const LIST_ADDRESSES_PER_READ = 5_000;

/**
 * The first addresses (address order) of each webhook, in the order given: at most `cap`, and no
 * more than its `address_count` as read with it, so the array and the count agree. Read several
 * webhooks per statement, from each one's primary-key range, but never more than
 * LIST_ADDRESSES_PER_READ rows; each read yields its webhooks' arrays, one per webhook. A page of
 * 500 webhooks at the cap is read 5,000 rows at a time while the answer streams, never as one
 * 500,000-row result.
 */
export async function* readCappedAddresses(
  db: Kysely<DeliveryDatabase>,
  webhooks: ReadonlyArray<Pick<WebhookRecord, "id" | "address_count">>,
  cap: number,
): AsyncGenerator<string[][]> {
  const wanted = webhooks.map((webhook) => ({ id: webhook.id, limit: Math.min(cap, webhook.address_count) }));
  for (let start = 0, end = 0; start < wanted.length; start = end) {
    // As many webhooks as one read holds; at least one (one webhook's cap is below the bound).
    let rows = wanted[start]!.limit;
    for (end = start + 1; end < wanted.length && rows + wanted[end]!.limit <= LIST_ADDRESSES_PER_READ; end++) rows += wanted[end]!.limit;
    const group = wanted.slice(start, end);
    const read = group.filter((webhook) => webhook.limit > 0);
    // Each webhook's rows come out of its lateral read in address order (its index range).
    const { rows: found } = read.length
      ? await sql<{ webhook_id: number; address: string }>`
          select w.id as webhook_id, a.address from unnest(${read.map((w) => w.id)}::bigint[], ${read.map((w) => w.limit)}::int[]) as w(id, cap)
            cross join lateral (select address from webhook_addresses where webhook_id = w.id order by address limit w.cap) a`.execute(db)
      : { rows: [] };
    const addresses = new Map<number, string[]>(group.map((webhook) => [webhook.id, []]));
    for (const row of found) addresses.get(Number(row.webhook_id))!.push(row.address);
    yield group.map((webhook) => addresses.get(webhook.id)!);
  }
}
