/** The delivery log (jobs and their attempts) as the API shows it, replay, and test events. */
import type { ChainEntry } from "@chaingate/chain-registry";
import { randomUUID } from "node:crypto";
import type { DeliveryAttempt } from "@chaingate/contracts";
import { sql, type Kysely, type Transaction } from "kysely";
import type { DeliveryDatabase, JobStatus } from "./database-schema.ts";
import { admitTestEvent, DEFAULT_REGISTRY_QUOTAS, TestEventRateError } from "../domain/registry-quotas.ts";
import { TEST_EVENT_PREFIX } from "../domain/attempt-outcome.ts";
import { testEventBody } from "../domain/test-event.ts";
import { DeliveryPendingError, isRetryable } from "../domain/manual-retry.ts";

export interface DeliveryView {
  id: number;
  webhook_id: number;
  event_id: string;
  sequence: number | null;
  status: JobStatus;
  attempts: number;
  next_attempt_at: string | null;
  payload: Record<string, unknown>;
  attempt_log: DeliveryAttempt[];
  created_at: string;
  updated_at: string;
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;

/**
 * Takes a place in the webhook's test event quota under its row lock (held to the commit, so
 * parallel calls queue); returns the database's now.
 * @throws TestEventRateError when the quota is used up
 */
async function admitTestEventOf(trx: Transaction<DeliveryDatabase>, webhookId: number, quota: number): Promise<Date> {
  const { test_event_times: sentAt } = await trx
    .selectFrom("webhooks")
    .select("test_event_times")
    .where("id", "=", webhookId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  // The clock once the lock is held (not the transaction's start): the times recorded under the lock only grow.
  const { now } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(trx).then((result) => result.rows[0]!);
  const admitted = admitTestEvent(sentAt, now, quota);
  if (!admitted.admitted) throw new TestEventRateError(quota, admitted.retryAfterSeconds);
  await trx.updateTable("webhooks").set({ test_event_times: admitted.keep }).where("id", "=", webhookId).execute();
  return now;
}

/** `testEventsPerMinute`: the per-webhook quota of test events (QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE). */
export function createDeliveryLog(
  db: Kysely<DeliveryDatabase>,
  onQueued: () => void,
  testEventsPerMinute = DEFAULT_REGISTRY_QUOTAS.testEventsPerWebhookPerMinute,
) {
  async function view(jobIds: number[]): Promise<DeliveryView[]> {
    if (!jobIds.length) return [];
    const jobs = await db.selectFrom("delivery_jobs").selectAll().where("id", "in", jobIds).orderBy("id", "desc").execute();
    const attempts = await db.selectFrom("delivery_attempts").selectAll().where("job_id", "in", jobIds).orderBy("id").execute();
    return jobs.map((job) => ({
      id: job.id,
      webhook_id: job.webhook_id,
      event_id: job.event_id,
      sequence: job.sequence === null ? null : Number(job.sequence),
      status: job.status,
      attempts: job.attempts,
      next_attempt_at: job.status === "pending" ? job.next_attempt_at.toISOString() : null,
      payload: JSON.parse(job.body) as Record<string, unknown>,
      attempt_log: attempts
        .filter((a) => a.job_id === job.id)
        .map((a) => ({
          attempt: a.attempt,
          status_code: a.status_code,
          latency_ms: a.latency_ms,
          error: a.error,
          response_excerpt: a.response_excerpt,
          created_at: a.created_at.toISOString(),
        })),
      created_at: job.created_at.toISOString(),
      updated_at: job.updated_at.toISOString(),
    }));
  }

  return {
    async list(
      webhookId: number,
      status: JobStatus | undefined,
      offset: number,
      limit: number,
    ): Promise<{ total: number; deliveries: DeliveryView[] }> {
      let query = db.selectFrom("delivery_jobs").where("webhook_id", "=", webhookId);
      if (status) query = query.where("status", "=", status);
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
      if (offset >= Number(total)) return { total: Number(total), deliveries: [] };
      const ids = await query.select("id").orderBy("id", "desc").offset(offset).limit(limit).execute();
      return { total: Number(total), deliveries: await view(ids.map((row) => row.id)) };
    },

    /**
     * Queues a finished delivery again for its next attempt (domain/manual-retry.ts); undefined when
     * it is not this webhook's. Its row lock orders parallel retries: one queues it, the others
     * then find it pending. (Lock order as the worker's record: the job, then its webhook.)
     * @throws DeliveryPendingError when it is pending (409)
     * @throws TestEventRateError when it is a test event past the webhook's quota (429)
     */
    async retry(webhookId: number, deliveryId: number): Promise<DeliveryView | undefined> {
      const queued = await db.transaction().execute(async (trx) => {
        const job = await trx
          .selectFrom("delivery_jobs")
          .select(["status", "event_id"])
          .where("id", "=", deliveryId)
          .where("webhook_id", "=", webhookId)
          .forUpdate()
          .executeTakeFirst();
        if (!job) return false;
        if (!isRetryable(job.status)) throw new DeliveryPendingError(job.status);
        if (job.event_id.startsWith(TEST_EVENT_PREFIX)) await admitTestEventOf(trx, webhookId, testEventsPerMinute);
        // The attempt count stays: the next attempt is the delivery's next, on what is left of its schedule.
        await trx
          .updateTable("delivery_jobs")
          .set({ status: "pending", next_attempt_at: new Date(), failure_published_at: null, updated_at: new Date() })
          .where("id", "=", deliveryId)
          .execute();
        return true;
      });
      if (!queued) return undefined;
      onQueued();
      return (await view([deliveryId]))[0];
    },

    /**
     * Queues a test event, within the webhook's per-minute quota: the webhook's row lock orders
     * parallel calls, so no more than the quota pass in any 60 seconds.
     * @throws TestEventRateError when the quota is used up (429 with Retry-After).
     */
    async sendTest(webhookId: number, chain: Pick<ChainEntry, "coin" | "native">): Promise<DeliveryView> {
      const { coin } = chain;
      const eventId = `${TEST_EVENT_PREFIX}${randomUUID()}`;
      const id = await db.transaction().execute(async (trx) => {
        const now = await admitTestEventOf(trx, webhookId, testEventsPerMinute);
        const watched = await trx
          .selectFrom("webhook_addresses")
          .select("address")
          .where("webhook_id", "=", webhookId)
          .orderBy("address")
          .limit(1)
          .executeTakeFirst();
        const body = JSON.stringify(testEventBody(eventId, webhookId, chain, watched?.address ?? null, now));
        const inserted = await trx
          .insertInto("delivery_jobs")
          .values({ webhook_id: webhookId, event_id: eventId, coin, body })
          .returning("id")
          .executeTakeFirstOrThrow();
        return inserted.id;
      });
      onQueued();
      return (await view([id]))[0]!;
    },
  };
}
