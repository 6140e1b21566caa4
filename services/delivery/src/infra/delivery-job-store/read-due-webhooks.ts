import { sql, type Kysely } from "kysely";
import type { DueWebhook } from "../../domain/allocate-slots.ts";
import { isBreakerOpen, type BreakerSettings } from "../../domain/circuit-breaker.ts";
import type { DeliveryDatabase } from "../database-schema.ts";

interface DueWebhookRow {
  webhook_id: string;
  account_id: string;
  oldest_due_at: Date;
  due_jobs: number;
  consecutive_unreachable: number;
  breaker_ready: boolean;
}

/**
 * Every webhook with due jobs: a skip scan of the pending jobs' (webhook_id, next_attempt_at)
 * index finds each webhook's oldest pending job in one descent, then its due jobs are counted up
 * to the per-webhook cap.
 */
export async function readDueWebhooks(db: Kysely<DeliveryDatabase>, breaker: BreakerSettings, perWebhook: number): Promise<DueWebhook[]> {
  const { rows } = await sql<DueWebhookRow>`
    with recursive heads as (
      (select webhook_id, next_attempt_at from delivery_jobs where status = 'pending' order by webhook_id, next_attempt_at limit 1)
      union all
      select later.webhook_id, later.next_attempt_at from heads h cross join lateral (
        select webhook_id, next_attempt_at from delivery_jobs
         where status = 'pending' and webhook_id > h.webhook_id
         order by webhook_id, next_attempt_at limit 1
      ) later
    )
    select h.webhook_id, w.account_id, h.next_attempt_at as oldest_due_at,
           -- An inactive or deleted webhook's jobs are skipped, not sent (test events excepted): no spacing for them.
           case when w.is_active = 1 and w.deleted_at is null then w.consecutive_unreachable else 0 end as consecutive_unreachable,
           (w.breaker_until is null or w.breaker_until <= now()) as breaker_ready,
           (select count(*) from (select 1 from delivery_jobs d
              where d.webhook_id = h.webhook_id and d.status = 'pending' and d.next_attempt_at <= now() limit ${perWebhook}) counted)::int as due_jobs
      from heads h join webhooks w on w.id = h.webhook_id
     where h.next_attempt_at <= now()`.execute(db);
  return rows.map((row) => ({
    webhookId: Number(row.webhook_id),
    accountId: Number(row.account_id),
    oldestDueAt: row.oldest_due_at.getTime(),
    dueJobs: row.due_jobs,
    breakerOpen: isBreakerOpen(row.consecutive_unreachable, breaker),
    breakerReady: row.breaker_ready,
  }));
}
