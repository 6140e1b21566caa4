import { bucketBitsFor } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../../infra/database-schema.ts";
import { ALL_BUCKETS } from "./outbox-slots.ts";
import { readWebhookMeta } from "./read-webhook-meta.ts";

/**
 * Raises the webhook's level when its size asks for it (in a short transaction of its own): a
 * new version, and every bucket queued. Old releases and plain SQL add addresses without
 * raising, so the relay is where it happens.
 */
export async function raiseBucketLevel(db: Kysely<DeliveryDatabase>, webhookId: number): Promise<void> {
  const meta = await readWebhookMeta(db, webhookId);
  if (!meta || meta.deleted || bucketBitsFor(meta.address_count) <= meta.bucket_bits) return;
  await db.transaction().execute(async (trx) => {
    const raised = await trx
      .updateTable("webhooks")
      .set({ bucket_bits: bucketBitsFor(meta.address_count), version: sql`nextval('webhook_version_seq')` } as never)
      .where("id", "=", webhookId)
      .where("bucket_bits", "<", bucketBitsFor(meta.address_count))
      .executeTakeFirst();
    if (Number(raised.numUpdatedRows) > 0)
      await trx.insertInto("webhook_changes").values({ webhook_id: webhookId, slot: ALL_BUCKETS }).execute();
  });
}
