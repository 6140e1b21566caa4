import { sql, type Kysely } from "kysely";

/**
 * Every event a webhook is sent is numbered (issue #30): `webhooks.last_sequence` is the newest
 * number given, assigned under the webhook's row lock in the transaction that stores the job, so
 * replicas never give one number twice or skip one; `pruned_through` is the newest number the
 * retention deleted (a cursor before it is a 410). Test events and jobs a release before this one
 * stored have no sequence. Expand only: a release without it ignores the columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column last_sequence bigint not null default 0`.execute(db);
  await sql`alter table webhooks add column pruned_through bigint not null default 0`.execute(db);
  await sql`alter table delivery_jobs add column sequence bigint`.execute(db);
  // The cursor read: a webhook's events in sequence order, from any point, at constant cost.
  await sql`create unique index delivery_jobs_webhook_sequence on delivery_jobs (webhook_id, sequence) where sequence is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index delivery_jobs_webhook_sequence`.execute(db);
  await sql`alter table delivery_jobs drop column sequence`.execute(db);
  await sql`alter table webhooks drop column pruned_through`.execute(db);
  await sql`alter table webhooks drop column last_sequence`.execute(db);
}
