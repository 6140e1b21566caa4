/**
 * The retention (DELIVERY_RETENTION_DAYS): what is deleted, at start-up and hourly, and why the
 * numbered events that stay are always one unbroken run.
 */
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";

/**
 * Deletes, with their attempts, what the retention period is over for; how many. A webhook's
 * numbered events go oldest first, up to its newest one stored before the period, and never
 * past one still pending (or failed and not yet handed over as `delivery.failed`): the events
 * kept are always one unbroken run, so a cursor finds no hole, and `pruned_through` says where
 * they start. Test events (not numbered) go when finished for the period, as before.
 */
export async function pruneDeliveries(db: Kysely<DeliveryDatabase>, retentionDays: number): Promise<number> {
  const cutoff = sql<Date>`now() - ${retentionDays} * interval '1 day'`;
  const numbered = await sql`
    with expired as (
      select webhook_id, max(sequence) as through from delivery_jobs
       where sequence is not null and created_at < ${cutoff}
       group by webhook_id
    ), held as (
      select d.webhook_id, min(d.sequence) as first_held
        from delivery_jobs d join expired e on e.webhook_id = d.webhook_id
       where d.sequence <= e.through and (d.status = 'pending' or (d.status = 'failed' and d.failure_published_at is null))
       group by d.webhook_id
    ), bounds as (
      select e.webhook_id, coalesce(h.first_held - 1, e.through) as through
        from expired e left join held h on h.webhook_id = e.webhook_id
    ), locked as materialized (
      -- In id order, as the consumer that numbers events locks them: the two never deadlock.
      select w.id from webhooks w join bounds b on b.webhook_id = w.id order by w.id for update of w
    ), moved as (
      update webhooks w set pruned_through = b.through
        from bounds b join locked l on l.id = b.webhook_id
       where w.id = b.webhook_id and b.through > w.pruned_through
      returning w.id
    )
    delete from delivery_jobs d using bounds b
     where d.webhook_id = b.webhook_id and d.sequence is not null and d.sequence <= b.through
       -- re-checked on the row: a delivery a manual retry queued meanwhile stays
       and d.status <> 'pending' and (d.status <> 'failed' or d.failure_published_at is not null)`.execute(db);
  const unnumbered = await db
    .deleteFrom("delivery_jobs")
    .where("sequence", "is", null)
    .where("status", "!=", "pending")
    .where("updated_at", "<", cutoff)
    .where((eb) => eb.or([eb("status", "!=", "failed"), eb("failure_published_at", "is not", null)]))
    .executeTakeFirst();
  return Number(numbered.numAffectedRows ?? 0) + Number(unnumbered.numDeletedRows);
}
