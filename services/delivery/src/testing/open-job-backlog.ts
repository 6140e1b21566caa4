/**
 * The delivery's job store without the service, for bench/delivery's claim cost (through
 * @chaingate/delivery/testing): the schema over a test database, webhooks and due jobs written
 * straight in Postgres, and the claim the worker runs.
 */
import { sql } from "kysely";
import { createDeliveryJobStore, type ClaimedJob, type ClaimLimits } from "../infra/delivery-job-store.ts";
import { openDeliveryDatabase } from "./open-delivery-database.ts";

const INSERT_ROWS = 100_000;

export interface JobBacklog {
  /** `count` ETH webhooks of `accountId` (no addresses: the claim does not read them). */
  createWebhooks(accountId: number, count: number): Promise<number[]>;
  /** `perWebhook` due jobs for each webhook, due `ageMs` ago. */
  addDueJobs(webhookIds: number[], perWebhook: number, ageMs: number): Promise<void>;
  claim(limits: ClaimLimits): Promise<ClaimedJob[]>;
  /** Makes claimed jobs due again (undoes their lease), so the next claim meets the same backlog. */
  release(jobIds: number[]): Promise<void>;
  close(): Promise<void>;
}

export async function openJobBacklog(databaseUrl: string): Promise<JobBacklog> {
  const database = await openDeliveryDatabase(databaseUrl, "bench-claims");
  const { db } = database;
  const store = createDeliveryJobStore(db, { threshold: 5, coolDownMs: 30_000 });
  return {
    async createWebhooks(accountId, count) {
      const { rows } = await sql<{ id: string }>`
        insert into webhooks (account_id, coin, webhook_url, secret, is_active)
        select ${accountId}, 'ETH', 'http://127.0.0.1:9/', 'whsec_bench', 1 from generate_series(1, ${count})
        returning id`.execute(db);
      return rows.map((row) => Number(row.id));
    },
    async addDueJobs(webhookIds, perWebhook, ageMs) {
      // In statements of about INSERT_ROWS jobs: one statement of a million would pass the pool's query timeout.
      const webhooksPerStatement = Math.max(1, Math.floor(INSERT_ROWS / perWebhook));
      for (let start = 0; start < webhookIds.length; start += webhooksPerStatement) {
        await sql`
          insert into delivery_jobs (webhook_id, event_id, coin, body, next_attempt_at)
          select w, 'evt_' || w || '_' || n || '_' || ${ageMs}, 'ETH', '{}', now() - ${ageMs} * interval '1 millisecond' + n * interval '1 microsecond'
            from unnest(${webhookIds.slice(start, start + webhooksPerStatement)}::bigint[]) w, generate_series(1, ${perWebhook}) n`.execute(
          db,
        );
      }
      await sql`analyze delivery_jobs`.execute(db);
    },
    claim: (limits) => store.claim(limits),
    async release(jobIds) {
      if (!jobIds.length) return;
      await db
        .updateTable("delivery_jobs")
        .set({ next_attempt_at: sql<Date>`now() - interval '1 hour'` })
        .where("id", "in", jobIds)
        .execute();
      await db.updateTable("webhooks").set({ breaker_until: null }).execute();
    },
    close: () => database.close(),
  };
}
