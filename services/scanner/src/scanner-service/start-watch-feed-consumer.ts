import type { Bus, Consumption } from "@chaingate/bus";
import { webhookFeed, type Coin } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { ScannerDatabase } from "../infra/database-schema.ts";
import { storeFeedMessages } from "../infra/postgres-watch-projection.ts";

/** The watch feed's durable consumer, storing each batch in the registry projection. */
export interface WatchFeedConsumer {
  /** The durable's name (this database's). */
  name: string;
  consumer: Consumption;
}

/** Starts consuming the watch feed (`webhook.changed`, `webhook.addresses`) into the projection. */
export async function startWatchFeedConsumer(
  db: Kysely<ScannerDatabase>,
  bus: Bus,
  followedCoins: ReadonlySet<Coin>,
): Promise<WatchFeedConsumer> {
  // The durable is named per database (migration 0002): replicas over one database share it and
  // store each message once; a new database gets its own and rebuilds from the start of the
  // compacted stream, a batch per transaction. Order does not matter for the result: a stored meta
  // or bucket is only ever replaced by a newer version.
  const { name } = await db.selectFrom("watch_feed_consumer").select("name").executeTakeFirstOrThrow();
  const consumer = await bus.consumeBatches(webhookFeed, {
    durable: name,
    handleBatch: (items) =>
      storeFeedMessages(
        db,
        items.map((item) => item.payload),
        { rescanCoins: followedCoins },
      ),
  });
  return { name, consumer };
}
