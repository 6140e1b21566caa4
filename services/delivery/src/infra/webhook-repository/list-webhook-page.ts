import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import { WEBHOOK_RECORD_COLUMNS, type WebhookRecord } from "./webhook-record.ts";

/** How many live webhooks the account has, and one page of them by id (without their addresses: see readCappedAddresses). */
export async function listWebhookPage(
  db: Kysely<DeliveryDatabase>,
  accountId: number,
  offset: number,
  limit: number,
): Promise<{ total: number; webhooks: WebhookRecord[] }> {
  const live = db.selectFrom("webhooks").where("account_id", "=", accountId).where("deleted_at", "is", null);
  const { total } = await live.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  if (offset >= Number(total)) return { total: Number(total), webhooks: [] };
  const rows = await live.select(WEBHOOK_RECORD_COLUMNS).orderBy("id").offset(offset).limit(limit).execute();
  return { total: Number(total), webhooks: rows.map((row) => ({ ...row, version: Number(row.version) })) };
}
