/**
 * Publishes the registry's watermark (`webhook.watermark` on stream WEBHOOK_FEED): a registry time
 * such that every registry change committed before it already has its feed messages in the stream.
 *
 * Invariant: `registry_time = least(statement_timestamp(), min(created_at) of the queued outbox rows)`,
 * read in ONE statement (one snapshot). A change committed before the statement started is visible
 * to it: either its outbox rows are gone, deleted by a relay transaction that committed only after
 * publishing them (so they are in the stream, before this watermark), or they are still queued and
 * their `created_at` (the writer's transaction start, or an issued address's earlier issuance time)
 * holds the watermark at or below the time the change began. The stream keeps the last one;
 * several replicas may each publish theirs and consumers keep the newest.
 */
import type { Bus } from "@chaingate/bus";
import { webhookWatermark } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";
import { createWakeableSleep } from "./wakeable-sleep.ts";

/** Failures logged: the first, then one in this many (NATS down for long must not flood the log). */
const LOG_EVERY_NTH_FAILURE = 30;

export type WatermarkPublisher = Pick<Bus, "publish">;

export interface WebhookWatermarkPublisher {
  /** Publishes one soon (after a relay round that published something); never waits for it. */
  wake(): void;
  stop(): Promise<void>;
}

/** The registry's watermark time now (see the module's invariant). */
export async function readRegistryTime(db: Kysely<DeliveryDatabase>): Promise<Date> {
  const { rows } = await sql<{ registry_time: Date }>`
    select least(statement_timestamp(), (select min(created_at) from webhook_changes)) as registry_time`.execute(db);
  return rows[0]!.registry_time;
}

export function startWebhookWatermarkPublisher(db: Kysely<DeliveryDatabase>, publisher: () => Promise<WatermarkPublisher>, logger: Logger, intervalMs: number): WebhookWatermarkPublisher {
  let stopped = false;
  const pause = createWakeableSleep();
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      try {
        const bus = await publisher();
        // Milliseconds, rounded down: a watermark may be early, never late.
        const registryTime = await readRegistryTime(db);
        await bus.publish(webhookWatermark, { registry_time: registryTime.toISOString() });
        failures = 0;
      } catch (error) {
        failures++;
        if (failures === 1 || failures % LOG_EVERY_NTH_FAILURE === 0) logger.warn({ err: error, failures }, "watch feed watermark not published; retrying at the next tick");
      }
      if (stopped) break;
      await pause.sleep(intervalMs);
    }
  })();
  return {
    wake: pause.wake,
    async stop() {
      stopped = true;
      pause.wake();
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    },
  };
}
