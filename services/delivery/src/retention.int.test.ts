/**
 * Retention (issue 7) on a real Postgres: finished deliveries (delivered, failed and published,
 * skipped, held for an inactive webhook) older than DELIVERY_RETENTION_DAYS are deleted with their attempts when the service
 * prunes (at start, then hourly); pending ones of any age and younger finished ones are kept.
 */
import { transferMatched } from "@chaingate/contracts";
import pg from "pg";
import { expect } from "vitest";
import { pruneDeliveries } from "./infra/prune-deliveries.ts";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const RETENTION_DAYS = 30;

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_RETENTION_DAYS: String(RETENTION_DAYS) } });

/** The job of an event, once it has reached `status`. */
async function jobOf(harness: DeliveryHarness, eventId: string, status: string): Promise<number> {
  let id: number | undefined;
  await expect
    .poll(
      async () => {
        const [row] = await harness.query<{ id: string; status: string }>(
          `select id, status from delivery.delivery_jobs where event_id = $1`,
          [eventId],
        );
        id = row ? Number(row.id) : undefined;
        return row?.status;
      },
      { timeout: 10_000 },
    )
    .toBe(status);
  return id!;
}
const ageDays = (harness: DeliveryHarness, jobId: number, days: number) =>
  harness.query(
    `update delivery.delivery_jobs set created_at = now() - $2 * interval '1 day', updated_at = now() - $2 * interval '1 day' where id = $1`,
    [jobId, days],
  );
const jobIds = async (harness: DeliveryHarness) =>
  (await harness.query<{ id: string }>(`select id from delivery.delivery_jobs order by id`)).map((row) => Number(row.id));
const attemptsOf = async (harness: DeliveryHarness, jobId: number) =>
  (await harness.query(`select 1 from delivery.delivery_attempts where job_id = $1`, [jobId])).length;

it("deletes finished deliveries past retention with their attempts; keeps pending and younger ones", async ({ harness }) => {
  const { bus, receiver } = harness;
  receiver.on("/gone", (_, res) => void res.writeHead(410).end());
  const ok = await harness.createWebhook({ path: "/ok" });
  const gone = await harness.createWebhook({ path: "/gone" });
  const inactive = await harness.createWebhook({ path: "/inactive", isActive: false });
  const [oldDelivered, youngDelivered, oldFailed, oldHeld] = [
    transferFor(ok.id),
    transferFor(ok.id),
    transferFor(gone.id),
    transferFor(inactive.id),
  ];
  for (const event of [oldDelivered, youngDelivered, oldFailed, oldHeld]) await bus.publish(transferMatched, event);
  const ids = {
    oldDelivered: await jobOf(harness, oldDelivered.event_id, "delivered"),
    youngDelivered: await jobOf(harness, youngDelivered.event_id, "delivered"),
    oldFailed: await jobOf(harness, oldFailed.event_id, "failed"),
    oldHeld: await jobOf(harness, oldHeld.event_id, "held"),
  };
  // delivery.failed of the failed job is published (its outbox column set) before it may go.
  await expect
    .poll(
      async () =>
        (await harness.query(`select 1 from delivery.delivery_jobs where id = $1 and failure_published_at is not null`, [ids.oldFailed]))
          .length,
      { timeout: 10_000 },
    )
    .toBe(1);
  // A pending job (its next attempt tomorrow) that has waited longer than the retention period.
  const [pending] = await harness.query<{ id: string }>(
    `insert into delivery.delivery_jobs (webhook_id, event_id, coin, body, next_attempt_at) values ($1, 'evt_waiting', 'BTC', '{}', now() + interval '1 day') returning id`,
    [ok.id],
  );
  const oldPending = Number(pending!.id);
  expect(await attemptsOf(harness, ids.oldDelivered)).toBe(1);
  expect(await attemptsOf(harness, ids.oldFailed)).toBe(1);

  for (const id of [ids.oldDelivered, ids.oldFailed, ids.oldHeld, oldPending]) await ageDays(harness, id, RETENTION_DAYS + 1);
  await ageDays(harness, ids.youngDelivered, RETENTION_DAYS - 1);
  await harness.restartDelivery(); // prunes when it starts

  await expect.poll(() => jobIds(harness), { timeout: 10_000 }).toEqual([ids.youngDelivered, oldPending].sort((a, b) => a - b));
  expect(await attemptsOf(harness, ids.oldDelivered)).toBe(0);
  expect(await attemptsOf(harness, ids.oldFailed)).toBe(0);
  expect(await attemptsOf(harness, ids.youngDelivered)).toBe(1);
  // As a client sees it: the log keeps the younger delivery and the waiting one.
  const log = await harness.api("GET", `/api/v1/webhooks/${ok.id}/deliveries`);
  expect((log.body.data as unknown as Array<{ event_id: string }>).map((d) => d.event_id)).toEqual([
    "evt_waiting",
    youngDelivered.event_id,
  ]);
});

it("the prune locks the webhooks it moves in id order, as the consumer that numbers events does: the two never deadlock", async ({
  harness,
  deliveryDb,
}) => {
  const [first, second] = [await harness.createWebhook({ path: "/order-1" }), await harness.createWebhook({ path: "/order-2" })];
  for (const webhook of [first, second]) {
    const event = transferFor(webhook.id);
    await harness.bus.publish(transferMatched, event);
    await ageDays(harness, await jobOf(harness, event.event_id, "delivered"), RETENTION_DAYS + 1);
  }
  // The first webhook's row gets a new version behind the second's: a scan of the table meets the second first.
  await harness.query(`update delivery.webhooks set updated_at = now() where id = $1`, [first.id]);
  const consumer = new pg.Client({ connectionString: harness.database.connectionString });
  await consumer.connect();
  try {
    // As the consumer does: the batch's webhooks locked in id order, the first now…
    await consumer.query(`begin`);
    await consumer.query(`select id from delivery.webhooks where id = $1 for update`, [first.id]);
    const pruned = pruneDeliveries(deliveryDb.db, RETENTION_DAYS);
    await expect
      .poll(
        async () =>
          (await harness.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`)).length,
      )
      .toBeGreaterThan(0);
    // …the second once the prune waits. A prune holding the second while waiting for the first: a deadlock, one of the two aborted.
    await consumer.query(`select id from delivery.webhooks where id = $1 for update`, [second.id]);
    await consumer.query(`commit`);
    expect(await pruned).toBe(2);
  } finally {
    await consumer.end();
  }
});
