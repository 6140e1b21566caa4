import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** Addresses per read when a single webhook's whole list is streamed (about 45 KB of JSON). */
const ADDRESS_STREAM_CHUNK = 1_000;

/**
 * The webhook's addresses in address order, a chunk at a time (keyset reads of the primary
 * key), for answers that carry them all: memory stays one chunk whatever the webhook's size.
 * Not one snapshot: a change committed while it runs may show in the later chunks only.
 */
export async function* readAddressChunks(db: Kysely<DeliveryDatabase>, webhookId: number): AsyncGenerator<string[]> {
  let after: string | undefined;
  for (;;) {
    let query = db.selectFrom("webhook_addresses").select("address").where("webhook_id", "=", webhookId);
    if (after !== undefined) query = query.where("address", ">", after);
    const rows = await query.orderBy("address").limit(ADDRESS_STREAM_CHUNK).execute();
    if (rows.length) yield rows.map((row) => row.address);
    if (rows.length < ADDRESS_STREAM_CHUNK) return;
    after = rows.at(-1)!.address;
  }
}
