export {
  createDatabase,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_QUERY_TIMEOUT_MS,
  parseInt8,
  type Database,
  type DatabaseLogger,
  type DatabaseOptions,
} from "./create-database.ts";
export { DatabaseUnavailableError, isConnectionFailure } from "./database-unavailable-error.ts";
export { migrateToLatest, type MigrationList } from "./migrate-to-latest.ts";
