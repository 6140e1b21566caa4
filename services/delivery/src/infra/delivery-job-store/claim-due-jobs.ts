import type { deliveryFailed, EventPayload } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import { allocateSlots } from "../../domain/allocate-slots.ts";
import type { BreakerSettings } from "../../domain/circuit-breaker.ts";
import type { DeliveryDatabase } from "../database-schema.ts";
import { readDueWebhooks } from "./read-due-webhooks.ts";

/** A claimed job with its webhook as it was at the claim. */
export interface ClaimedJob {
  webhook_url: string;
  secret: string;
  /** The secret a rotation replaced, while it still signs (its overlap); null otherwise. */
  previous_secret: string | null;
  is_active: number;
  deleted: boolean;
  id: number;
  webhook_id: number;
  account_id: number;
  event_id: string;
  coin: EventPayload<typeof deliveryFailed>["coin"];
  body: string;
  /** The event's number in its webhook's history; null for test events. */
  sequence: number | null;
  attempts: number;
  traceparent: string | null;
}

export interface ClaimLimits {
  /** Slots free overall. */
  free: number;
  /** Jobs in flight per webhook now. */
  inFlight: ReadonlyMap<number, number>;
  /** Jobs in flight per account now. */
  accountInFlight: ReadonlyMap<number, number>;
  /** At most this many jobs of one webhook in flight. */
  perWebhook: number;
  /** At most this many jobs of one account in flight. */
  perAccount: number;
  leaseMs: number;
}

/** Shares the free slots among the webhooks with due jobs and takes each one's oldest due jobs under a lease. */
export async function claimDueJobs(
  db: Kysely<DeliveryDatabase>,
  breaker: BreakerSettings,
  { free, inFlight, accountInFlight, perWebhook, perAccount, leaseMs }: ClaimLimits,
): Promise<ClaimedJob[]> {
  if (free <= 0) return [];
  const grants = allocateSlots(await readDueWebhooks(db, breaker, perWebhook), {
    free,
    perWebhook,
    perAccount,
    webhookInFlight: inFlight,
    accountInFlight,
  });
  if (!grants.length) return [];
  // An open breaker's one attempt takes the webhook's `breaker_until` as its lease first (only
  // one replica can), so no other replica starts another before it ends. Jobs are re-checked
  // under their row locks: a job another replica leased meanwhile is skipped, never sent twice.
  // Planner shape (a million-job backlog took 300 ms to 1.7 s per claim otherwise): the constant
  // inner limit keeps the row estimate small, so no hash join over the whole table and no JIT;
  // LockRows is lazy, so only the `g.jobs` rows the outer limit pulls are locked; `= any(array)`
  // reaches the chosen jobs through the primary key.
  const { rows } = await sql<ClaimedJob>`
    with wanted as (
      select * from unnest(${grants.map((g) => g.webhookId)}::bigint[], ${grants.map((g) => g.jobs)}::int[], ${grants.map((g) => g.probe)}::boolean[])
        as g(webhook_id, jobs, probe)
    ), probes as (
      update webhooks w set breaker_until = now() + ${leaseMs} * interval '1 millisecond'
        from wanted g
       where g.probe and w.id = g.webhook_id and (w.breaker_until is null or w.breaker_until <= now())
      returning w.id
    ), due as (
      select picked.id from wanted g cross join lateral (
        select locked.id from (
          select d.id from delivery_jobs d
           where d.webhook_id = g.webhook_id and d.status = 'pending' and d.next_attempt_at <= now()
           order by d.next_attempt_at limit ${perWebhook}
           for update skip locked
        ) locked limit g.jobs
      ) picked
      where not g.probe or g.webhook_id in (select id from probes)
    )
    update delivery_jobs j set next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
      from webhooks w
     where j.id = any(array(select id from due)) and j.status = 'pending' and j.next_attempt_at <= now() and w.id = j.webhook_id
    returning j.id, j.webhook_id, w.account_id, j.event_id, j.coin, j.body, j.sequence, j.attempts, j.traceparent, w.webhook_url, w.secret, w.is_active,
              case when w.previous_secret_until > now() then w.previous_secret end as previous_secret,
              w.deleted_at is not null as deleted`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id), webhook_id: Number(row.webhook_id), account_id: Number(row.account_id) }));
}
