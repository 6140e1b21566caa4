import type { EventPayload, webhookChanged } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../../infra/database-schema.ts";

/** The webhook as its `webhook.changed` message tells it. */
export type WebhookMeta = EventPayload<typeof webhookChanged>;

/** The webhook's meta as `executor` sees it now; undefined when there is no such row. */
export async function readWebhookMeta(executor: Kysely<DeliveryDatabase>, webhookId: number): Promise<WebhookMeta | undefined> {
  const row = await executor
    .selectFrom("webhooks")
    .select([
      "id",
      "coin",
      "is_active",
      "deleted_at",
      "version",
      "confirmations",
      "include_tokens",
      "pending",
      "all_tokens",
      "address_count",
      "bucket_bits",
    ])
    .where("id", "=", webhookId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    webhook_id: row.id,
    coin: row.coin,
    is_active: row.is_active === 1,
    // Matched while it exists, active or not: an inactive webhook's events are held, not lost.
    watch: row.deleted_at === null,
    deleted: row.deleted_at !== null,
    version: Number(row.version),
    confirmations: row.confirmations,
    include_tokens: row.include_tokens,
    pending: row.pending,
    all_tokens: row.all_tokens,
    address_count: row.address_count,
    bucket_bits: row.bucket_bits,
  };
}
