import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/**
 * The events stored while the webhook was inactive, once it is enabled (in the enabling
 * transaction, under its row lock): `push` makes them due now, staggered by a microsecond in
 * sequence order so the claim (oldest due first) takes them oldest first, on what is left of their
 * attempts; `skip` marks them skipped (still readable by cursor). How many.
 */
export async function releaseHeldEvents(trx: Transaction<DeliveryDatabase>, webhookId: number, choice: "push" | "skip"): Promise<number> {
  const released =
    choice === "push"
      ? await sql`
          update delivery_jobs j set status = 'pending', next_attempt_at = now() + held.n * interval '1 microsecond', updated_at = now()
            from (select id, row_number() over (order by sequence, id) as n from delivery_jobs where webhook_id = ${webhookId} and status = 'held') held
           where j.id = held.id`.execute(trx)
      : await sql`update delivery_jobs set status = 'skipped', updated_at = now() where webhook_id = ${webhookId} and status = 'held'`.execute(
          trx,
        );
  return Number(released.numAffectedRows ?? 0);
}
