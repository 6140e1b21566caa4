import type { Coin } from "@chaingate/contracts";
import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** The live webhooks of the key's account and coin that name it, locked for the transaction (in id order). */
export async function lockWebhooksNamingKey(
  trx: Transaction<DeliveryDatabase>,
  key: { xpub_id: number; account_id: number; coin: Coin },
): Promise<number[]> {
  const rows = await trx
    .selectFrom("webhooks")
    .select("id")
    .where("account_id", "=", key.account_id)
    .where("coin", "=", key.coin)
    .where("deleted_at", "is", null)
    .where(sql<boolean>`xpub_ids @> array[${key.xpub_id}]::bigint[]`)
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}
