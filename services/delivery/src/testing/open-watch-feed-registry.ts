/**
 * The delivery's registry without its HTTP app, for bench/watch (through @chaingate/delivery/testing):
 * the registry's schema over a test database, a large webhook written straight in Postgres (the
 * bench measures the feed, not the batch API), and the outbox relay on its own.
 */
import { connectBus } from "@chaingate/bus";
import { webhookAddresses, webhookChanged } from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import { sql } from "kysely";
import { openDeliveryDatabase } from "./open-delivery-database.ts";
import { startWebhookChangedRelay, type WebhookChangedRelay } from "../workers/webhook-changed-relay.ts";
import { markWebhookChanged } from "../infra/webhook-repository/mark-webhook-changed.ts";

export interface WatchFeedRegistry {
  /** An ETH webhook with `count` addresses `0x…0001` upwards, committed with its outbox rows. */
  createWebhook(count: number): Promise<number>;
  /** Adds one address as the registry does (new version, outbox rows) and wakes the relay. */
  addAddress(webhookId: number, address: string): Promise<void>;
  /** Starts the outbox relay (its own loop, as in the service). */
  startRelay(): WebhookChangedRelay;
  /** Rows waiting in the outbox. */
  queued(): Promise<number>;
  close(): Promise<void>;
}

export async function openWatchFeedRegistry(databaseUrl: string, natsUrl: string, namespace: string): Promise<WatchFeedRegistry> {
  const database = await openDeliveryDatabase(databaseUrl, "bench-registry");
  const bus = await connectBus({ url: natsUrl, name: "bench-registry", logger: silentLogger, namespace });
  await bus.ensureStreams([webhookChanged, webhookAddresses]);
  let relay: WebhookChangedRelay | undefined;
  return {
    async createWebhook(count) {
      return database.db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto("webhooks")
          .values({ account_id: 1, coin: "ETH", webhook_url: "https://example.com/hook", secret: "whsec_00", is_active: 1, xpub_ids: [] })
          .returning("id")
          .executeTakeFirstOrThrow();
        await sql`insert into webhook_addresses (webhook_id, address) select ${id}, '0x' || lpad(to_hex(g), 40, '0') from generate_series(1, ${count}::int) g`.execute(
          trx,
        );
        await markWebhookChanged(trx, id);
        return id;
      });
    },
    async addAddress(webhookId, address) {
      await database.db.transaction().execute(async (trx) => {
        await trx.insertInto("webhook_addresses").values({ webhook_id: webhookId, address }).execute();
        await markWebhookChanged(trx, webhookId);
      });
      relay?.wake();
    },
    startRelay() {
      relay = startWebhookChangedRelay(database.db, async () => bus, silentLogger);
      return relay;
    },
    async queued() {
      const { n } = await database.db
        .selectFrom("webhook_changes")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async close() {
      await relay?.stop();
      await bus.close();
      await database.close();
    },
  };
}
