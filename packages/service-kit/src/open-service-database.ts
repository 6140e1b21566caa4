/**
 * A service's database, ready to use: the pool on the service's schema, and every migration
 * applied (waiting for a database that is not up yet). A failed migration closes the pool.
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

export async function openServiceDatabase<DB>(options: OpenServiceDatabaseOptions): Promise<Database<DB>> {
  const { settings, logger } = options;
  const database = createDatabase<DB>({
    connectionString: settings.DATABASE_URL,
    schema: options.schema,
    poolSize: settings.DATABASE_POOL_SIZE,
    applicationName: options.applicationName,
    connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: settings.DATABASE_QUERY_TIMEOUT_MS,
    logger,
  });
  try {
    const applied = await migrateToLatest(database.db, options.schema, options.migrations, logger);
    if (applied.length) logger?.info({ migrations: applied }, "migrated");
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
