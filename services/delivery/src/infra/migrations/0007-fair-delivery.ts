import { sql, type Kysely } from "kysely";

/**
 * Fair claims and the per-webhook circuit breaker (docs/design/delivery.md, "Fairness and the
 * circuit breaker"):
 * - due jobs are found per webhook: the claim walks the webhooks with pending jobs on an index of
 *   (webhook_id, next_attempt_at), one descent per webhook, so its cost follows the number of
 *   webhooks with pending jobs, never the size of one webhook's backlog; it replaces the index on
 *   next_attempt_at alone, which nothing else reads;
 * - the breaker's state is on the webhook row (shared by replicas, kept over restarts): the run
 *   of attempts that got no answer, and the time before which no attempt of an open breaker may
 *   start (its cool-down, or the lease of the one attempt in flight).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index delivery_jobs_pending_by_webhook on delivery_jobs (webhook_id, next_attempt_at) where status = 'pending'`.execute(
    db,
  );
  await sql`drop index delivery_jobs_due`.execute(db);
  await sql`alter table webhooks add column consecutive_unreachable integer not null default 0`.execute(db);
  await sql`alter table webhooks add column breaker_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column breaker_until`.execute(db);
  await sql`alter table webhooks drop column consecutive_unreachable`.execute(db);
  await sql`create index delivery_jobs_due on delivery_jobs (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`drop index delivery_jobs_pending_by_webhook`.execute(db);
}
