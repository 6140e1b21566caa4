/** The follower's real Postgres store and JetStream sink, migrated and connected, for benchmarks and tests. */
import { connectBus } from "@chaingate/bus";
import { blockProcessed, transferMatched, webhookAddresses, webhookChanged, type WebhookFeedMessage } from "@chaingate/contracts";
import { createDatabase } from "@chaingate/db";
import { openServiceDatabase } from "@chaingate/service-kit";
import { silentLogger } from "@chaingate/testing";
import { CompiledQuery } from "kysely";
import type { EventSink, FollowerStore, WatchFeed } from "../domain/ports.ts";
import { SCANNER_SCHEMA, type ScannerDatabase } from "../infra/database-schema.ts";
import { createJetStreamEventSink } from "../infra/jetstream-event-sink.ts";
import { scannerMigrations } from "../infra/migrations/index.ts";
import { createPostgresFollowerStore } from "../infra/postgres-follower-store.ts";
import { createPostgresMempoolStore } from "../infra/postgres-mempool-store.ts";
import type { MempoolStore } from "../domain/mempool/mempool-ports.ts";
import { createPostgresWatchFeed, storeFeedMessage } from "../infra/postgres-watch-projection.ts";

export interface ScannerState {
  store: FollowerStore;
  /** The mempool watcher's store (issue #29). */
  mempoolStore: MempoolStore;
  sink: EventSink;
  /** A new reader of the registry projection (a replica that starts empty). */
  watchFeed(): WatchFeed;
  /** Stores a watch-feed message as the scanner's consumer does. */
  storeFeedMessage(message: WebhookFeedMessage): Promise<void>;
  close(): Promise<void>;
}

export async function openScannerState(options: { databaseUrl: string; natsUrl: string; namespace: string }): Promise<ScannerState> {
  const database = await openServiceDatabase<ScannerDatabase>({
    settings: { DATABASE_URL: options.databaseUrl },
    schema: SCANNER_SCHEMA,
    migrations: scannerMigrations,
    applicationName: SCANNER_SCHEMA,
    logger: silentLogger,
  });
  const bus = await connectBus({ url: options.natsUrl, name: "scanner-state", logger: silentLogger, namespace: options.namespace });
  await bus.ensureStreams([transferMatched, blockProcessed, webhookChanged, webhookAddresses]);
  return {
    store: createPostgresFollowerStore(database.db),
    mempoolStore: createPostgresMempoolStore(database.db),
    sink: createJetStreamEventSink(bus),
    watchFeed: () => createPostgresWatchFeed(database.db),
    storeFeedMessage: (message) => storeFeedMessage(database.db, message),
    async close() {
      await bus.close();
      await database.close();
    },
  };
}

export interface ScannerProjection {
  /** A new reader of the projection (a replica that starts empty). */
  feed(): WatchFeed;
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** Reads the projection of a scanner that runs elsewhere (its database, already migrated). */
export async function openScannerProjection(databaseUrl: string): Promise<ScannerProjection> {
  const database = createDatabase<ScannerDatabase>({ connectionString: databaseUrl, schema: SCANNER_SCHEMA, logger: silentLogger });
  return {
    feed: () => createPostgresWatchFeed(database.db),
    async query<Row>(text: string, values: unknown[] = []) {
      const { rows } = await database.db.executeQuery<Row>(CompiledQuery.raw(text, values));
      return rows;
    },
    close: () => database.close(),
  };
}
