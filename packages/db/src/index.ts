export { createDatabase, DEFAULT_POOL_SIZE, type Database, type DatabaseOptions } from "./create-database.ts";
export { migrateToLatest, type MigrationList } from "./migrate-to-latest.ts";
