/**
 * The scanner's projection of the webhook registry, kept in Postgres so a scanner that starts
 * (or takes over) empty loads the whole index with one query instead of replaying events
 * (`webhook.changed` lives only as long as its stream's retention). One replica stores each
 * event (a shared durable consumer); every replica reads what changed since its last refresh.
 */
import type { EventPayload, webhookChanged } from "@chaingate/contracts";
import { sql, type Kysely } from "kysely";
import type { WatchFeed } from "../domain/ports.ts";
import type { WatchedWebhook } from "../domain/watch-index.ts";
import type { ScannerDatabase } from "./database-schema.ts";

/** Advisory lock key serialising projection writes (any constant unique within the database). */
const WEBHOOK_WRITE_LOCK = 0x5ca77e01;

export type WebhookChange = EventPayload<typeof webhookChanged>;

/** Stores a registry change unless a newer version of the webhook is already stored. */
export async function storeWebhookChange(db: Kysely<ScannerDatabase>, change: WebhookChange): Promise<void> {
  const values = {
    webhook_id: change.webhook_id,
    coin: change.coin,
    addresses: JSON.stringify(change.addresses),
    is_active: change.is_active,
    deleted: change.deleted,
    version: change.version,
    confirmations: change.confirmations ?? null,
    include_tokens: change.include_tokens ?? null,
  };
  // Writers take turns, so change_seq values commit in order and a reader that saw seq n can never
  // miss a smaller one committing later.
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${WEBHOOK_WRITE_LOCK})`.execute(trx);
    await trx
    .insertInto("webhooks")
    .values(values)
    .onConflict((c) =>
      c
        .column("webhook_id")
        .doUpdateSet({ ...values, change_seq: sql<number>`nextval('webhook_change_seq')` })
        .where("webhooks.version", "<", change.version),
    )
    .execute();
  });
}

/** A feed that applies the rows changed since the previous refresh (all of them the first time). */
export function createPostgresWatchFeed(db: Kysely<ScannerDatabase>): WatchFeed {
  let lastSeq = 0;
  return {
    async refresh(index) {
      const rows = await db.selectFrom("webhooks").selectAll().where("change_seq", ">", lastSeq).orderBy("change_seq").execute();
      for (const row of rows) {
        const webhook: WatchedWebhook = {
          webhookId: row.webhook_id,
          coin: row.coin as WatchedWebhook["coin"],
          addresses: row.addresses,
          isActive: row.is_active,
          deleted: row.deleted,
          version: row.version,
          confirmations: row.confirmations ?? undefined,
          includeTokens: row.include_tokens ?? undefined,
        };
        index.apply(webhook);
        lastSeq = row.change_seq;
      }
    },
  };
}
