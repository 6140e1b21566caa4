/**
 * Wires the xpub service from its config: database and migrations, repository, HTTP app and
 * server. `main.ts` calls it; tests call it with their own config.
 */
import { createDatabase, migrateToLatest } from "@chaingate/db";
import { serveHttpApp, type ServedApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Kysely } from "kysely";
import type { XpubConfig } from "./config.ts";
import { bitcoinScheme, ethereumScheme } from "./domain/key-scheme.ts";
import { createXpubApp, ETH_XPUB_BASE_PATH, XPUB_BASE_PATH, type XpubChainRoutes } from "./http/create-xpub-app.ts";
import { XPUB_SCHEMA, type XpubDatabase } from "./infra/database-schema.ts";
import { xpubMigrations } from "./infra/migrations/index.ts";
import { createXpubRepository, type XpubRepository } from "./infra/xpub-repository.ts";

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

  const limit = config.XPUB_MAX_ADDRESSES_PER_KEY;
  const bitcoin = bitcoinScheme(config.BITCOIN_NETWORK);
  const chains: XpubChainRoutes[] = [
    {
      basePath: XPUB_BASE_PATH,
      repository: createXpubRepository({ db: database.db, scheme: bitcoin, maxAddressesPerKey: limit }) as XpubRepository,
      parseKey: bitcoin.parse,
      toIssued: ({ address, index, path }) => ({ address, index, path }),
      toHistoryEntry: ({ address, index, created_at }) => ({ address, index, created_at: created_at.toISOString() }),
    },
    {
      basePath: ETH_XPUB_BASE_PATH,
      repository: createXpubRepository({ db: database.db, scheme: ethereumScheme, maxAddressesPerKey: limit }) as XpubRepository,
      parseKey: ethereumScheme.parse,
      toIssued: ({ address, index, path }) => ({ address, address_lowercase: address.toLowerCase(), index, path }),
      toHistoryEntry: ({ address, index, created_at }) => ({ address, address_lowercase: address.toLowerCase(), index, created_at: created_at.toISOString() }),
    },
  ];
  const http = createXpubApp({ chains, logger, readinessChecks: { database: () => database.ping() }, internalToken: config.INTERNAL_TOKEN });
  return serveHttpApp(http, { host: config.HOST, port: config.PORT, logger, drainTimeoutMs: config.DRAIN_TIMEOUT_MS }, () => database.close());
}
