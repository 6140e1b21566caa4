/**
 * A service's database, ready to use: the pool on the service's schema, and every migration
 * applied (waiting for a database that is not up yet). Migrations run on a connection of their
 * own without the request pool's query timeout (DATABASE_QUERY_TIMEOUT_MS bounds one request; a
 * migration that rewrites a large table takes what it takes); the request pool opens after them.
 */
import { createDatabase, migrateToLatest, type Database, type DatabaseLogger, type MigrationList } from "@chaingate/db";
import type { Logger } from "@chaingate/logger";

/** The shared database settings (`databaseSettings()` of @chaingate/config). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE?: number;
  DATABASE_CONNECT_TIMEOUT_MS?: number;
  DATABASE_QUERY_TIMEOUT_MS?: number;
}

export interface OpenServiceDatabaseOptions {
  settings: DatabaseSettings;
  /** The service's schema, e.g. "xpub". */
  schema: string;
  migrations: MigrationList;
  /** Shown by Postgres (pg_stat_activity), e.g. "chaingate-xpub". */
  applicationName: string;
  /** Told which migrations ran, and about connection losses; command-line tools leave it out. */
  logger?: Pick<Logger, "info"> & DatabaseLogger;
}

/** A migration's client-side deadline: long enough for any rewrite, short of waiting forever on a lost server. */
export const MIGRATION_QUERY_TIMEOUT_MS = 60 * 60 * 1000;

export async function openServiceDatabase<DB>(options: OpenServiceDatabaseOptions): Promise<Database<DB>> {
  const { settings, logger } = options;
  const migrating = createDatabase<DB>({
    connectionString: settings.DATABASE_URL,
    schema: options.schema,
    poolSize: 1,
    applicationName: `${options.applicationName}-migrate`,
    connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: MIGRATION_QUERY_TIMEOUT_MS,
    logger,
  });
  try {
    const applied = await migrateToLatest(migrating.db, options.schema, options.migrations, logger);
    if (applied.length) logger?.info({ migrations: applied }, "migrated");
  } finally {
    await migrating.close();
  }
  return createDatabase<DB>({
    connectionString: settings.DATABASE_URL,
    schema: options.schema,
    poolSize: settings.DATABASE_POOL_SIZE,
    applicationName: options.applicationName,
    connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: settings.DATABASE_QUERY_TIMEOUT_MS,
    logger,
  });
}
