/**
 * The operational events' outbox → numbered jobs of the account's webhooks, one outbox row per
 * transaction (taken `skip locked`, so replicas share the work, and deleted in the transaction that
 * stores its jobs: a crash repeats a row, never loses one, and its jobs are stored once).
 */
import type { Kysely } from "kysely";
import { operationalEventBody, operationalEventRecipients } from "../domain/operational-events.ts";
import type { DeliveryDatabase } from "./database-schema.ts";
import { storeNumberedJobs } from "./store-numbered-jobs.ts";

/** Fans out at most `limit` outbox rows, oldest first; how many jobs it queued to send. */
export async function fanOutOperationalEvents(db: Kysely<DeliveryDatabase>, limit: number): Promise<number> {
  let queued = 0;
  for (let done = 0; done < limit; done++) {
    const fannedOut = await db.transaction().execute(async (trx) => {
      const event = await trx
        .selectFrom("operational_events")
        .selectAll()
        .orderBy("id")
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!event) return undefined;
      const webhooks = await trx
        .selectFrom("webhooks")
        .select("id")
        .where("account_id", "=", event.account_id)
        .where("deleted_at", "is", null)
        .orderBy("id")
        .execute();
      const recipients = operationalEventRecipients(
        event.type,
        Number(event.subject_webhook_id),
        webhooks.map((webhook) => Number(webhook.id)),
      );
      const stored = await storeNumberedJobs(
        trx,
        recipients.map((webhookId) => {
          const body = operationalEventBody(Number(event.id), event.type, webhookId, event.subject, event.created_at);
          return { webhookId, eventId: body.event_id, body, traceparent: null };
        }),
      );
      await trx.deleteFrom("operational_events").where("id", "=", event.id).execute();
      return stored.queued;
    });
    if (fannedOut === undefined) break;
    queued += fannedOut;
  }
  return queued;
}
