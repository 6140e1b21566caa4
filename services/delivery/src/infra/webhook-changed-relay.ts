/**
 * Relays the registry outbox to JetStream as `webhook.changed`: claims queued changes with
 * `FOR UPDATE SKIP LOCKED`, publishes each changed webhook's whole current state (a full snapshot,
 * so the newest message of a webhook is all a consumer needs), then deletes the rows in the same
 * transaction. A crash between publish and commit republishes with the same deterministic
 * Nats-Msg-Id (`webhook:<id>:<version>`), dropped by JetStream as a duplicate. While NATS is down
 * the registry keeps working; the relay backs off and catches up.
 */
import { webhookChanged, type EventPayload } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";
import { createWakeableSleep } from "./wakeable-sleep.ts";

const RELAY_BATCH_SIZE = 100;
const IDLE_POLL_MS = 1_000;
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 10_000;

export interface WebhookChangedPublisher {
  publish(contract: typeof webhookChanged, payload: EventPayload<typeof webhookChanged>): Promise<unknown>;
}

export interface WebhookChangedRelay {
  wake(): void;
  /** Publishes everything queued now (tests). */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function startWebhookChangedRelay(db: Kysely<DeliveryDatabase>, publisher: () => Promise<WebhookChangedPublisher>, logger: Logger): WebhookChangedRelay {
  let stopped = false;
  const pause = createWakeableSleep();

  async function relayBatch(bus: WebhookChangedPublisher): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom("webhook_changes").select(["id", "webhook_id"]).orderBy("id").limit(RELAY_BATCH_SIZE).forUpdate().skipLocked().execute();
      const webhookIds = [...new Set(rows.map((row) => row.webhook_id))];
      for (const webhookId of webhookIds) {
        const webhook = await trx.selectFrom("webhooks").select(["id", "coin", "is_active", "deleted_at", "version", "confirmations", "include_tokens"]).where("id", "=", webhookId).executeTakeFirst();
        if (!webhook) continue;
        const addresses = await trx.selectFrom("webhook_addresses").select("address").where("webhook_id", "=", webhookId).execute();
        await bus.publish(webhookChanged, {
          webhook_id: webhook.id,
          coin: webhook.coin,
          addresses: webhook.deleted_at ? [] : addresses.map((row) => row.address),
          is_active: webhook.is_active === 1,
          deleted: webhook.deleted_at !== null,
          version: Number(webhook.version),
          confirmations: webhook.confirmations,
          include_tokens: webhook.include_tokens,
        });
      }
      if (rows.length) await trx.deleteFrom("webhook_changes").where("id", "in", rows.map((row) => row.id)).execute();
      return webhookIds.length;
    });
  }

  async function drain(): Promise<number> {
    const bus = await publisher();
    let total = 0;
    for (;;) {
      const published = await relayBatch(bus);
      total += published;
      if (published === 0) return total;
    }
  }

  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      try {
        await drain();
        failures = 0;
      } catch (error) {
        failures++;
        logger.warn({ err: error, failures }, "webhook.changed relay failed; retrying");
      }
      if (stopped) break;
      await pause.sleep(failures ? Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.min(failures - 1, 6), MAX_RETRY_DELAY_MS) : IDLE_POLL_MS);
    }
  })();

  return {
    wake: pause.wake,
    drain,
    async stop() {
      stopped = true;
      pause.wake();
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    },
  };
}
