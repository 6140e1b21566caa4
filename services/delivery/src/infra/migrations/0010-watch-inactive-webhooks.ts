import { sql, type Kysely } from "kysely";

/**
 * An inactive webhook stays watched (issue #30): its `webhook.changed` now says `watch: true`, and
 * its events are stored held. Webhooks that were inactive at the upgrade get a new version and an
 * outbox row, so the relay publishes that meta and the scanner matches for them from then on.
 * A release before this one publishes them unwatched again on their next change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update webhooks set version = nextval('webhook_version_seq') where is_active = 0 and deleted_at is null`.execute(db);
  await sql`insert into webhook_changes (webhook_id) select id from webhooks where is_active = 0 and deleted_at is null`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the rows were an outbox entry and a version bump.
}
