import type { Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** Rows per insert statement when adding addresses (stays far below Postgres' 65,535 parameters). */
const INSERT_CHUNK = 5_000;

/** Adds the client's addresses (and marks as listed the ones already watched through a key); how many are new. */
export async function insertAddresses(
  trx: Transaction<DeliveryDatabase>,
  webhookId: number,
  addresses: readonly string[],
): Promise<number> {
  let added = 0;
  for (let start = 0; start < addresses.length; start += INSERT_CHUNK) {
    const chunk = addresses.slice(start, start + INSERT_CHUNK);
    await trx
      .updateTable("webhook_addresses")
      .set({ listed: true })
      .where("webhook_id", "=", webhookId)
      .where("listed", "=", false)
      .where("address", "in", chunk)
      .execute();
    const result = await trx
      .insertInto("webhook_addresses")
      .values(chunk.map((address) => ({ webhook_id: webhookId, address })))
      .onConflict((c) => c.doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}
