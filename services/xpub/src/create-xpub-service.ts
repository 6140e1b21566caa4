/**
 * Wires the xpub service from its config: database and migrations, repository, HTTP app and
 * server. `main.ts` calls it; tests call it with their own config.
 */
import { createDatabase, migrateToLatest } from "@chaingate/db";
import { serveHttpApp, type ServedApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Kysely } from "kysely";
import type { XpubConfig } from "./config.ts";
import { createXpubApp } from "./http/create-xpub-app.ts";
import { XPUB_SCHEMA, type XpubDatabase } from "./infra/database-schema.ts";
import { xpubMigrations } from "./infra/migrations/index.ts";
import { createXpubRepository } from "./infra/xpub-repository.ts";

export type XpubService = ServedApp;

/** Migrates the `xpub` schema, then serves the xpub endpoints until `close()`. */
export async function createXpubService(config: XpubConfig, logger: Logger): Promise<XpubService> {
  const database = createDatabase<XpubDatabase>({
    connectionString: config.DATABASE_URL,
    schema: XPUB_SCHEMA,
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: "chaingate-xpub",
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    logger,
  });
  try {
    const applied = await migrateToLatest(database.db as Kysely<unknown>, XPUB_SCHEMA, xpubMigrations, logger);
    if (applied.length) logger.info({ migrations: applied }, "migrated");
  } catch (error) {
    await database.close();
    throw error;
  }

  const repository = createXpubRepository({ db: database.db, network: config.BITCOIN_NETWORK, maxAddressesPerKey: config.XPUB_MAX_ADDRESSES_PER_KEY });
  const http = createXpubApp({ repository, network: config.BITCOIN_NETWORK, logger, readinessChecks: { database: () => database.ping() }, internalToken: config.INTERNAL_TOKEN });
  return serveHttpApp(http, { host: config.HOST, port: config.PORT, logger, drainTimeoutMs: config.DRAIN_TIMEOUT_MS }, () => database.close());
}
