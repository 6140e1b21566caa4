/**
 * Runs a service's migrations with kysely's Migrator, in the service's schema. Safe to run from
 * several replicas at once: the Migrator holds an advisory lock while it works. A service that
 * starts while its database is down waits for it (with back-off, logged) instead of exiting: on
 * Kubernetes an exit would become a CrashLoopBackOff that outlasts the outage by minutes.
 *
 * An older release starts on a newer release's schema (a `helm rollback`, an old pod restarting
 * during a rollout): migrations are expand-only (docs/operations/deployment.md), so when every
 * migration this code knows is applied, the newer ones it does not know are left as they are and
 * the service starts (kysely's Migrator would refuse: "corrupted migrations"). Code that lacks a
 * migration the database has while one of its own is still pending is a history no release has
 * produced: refused, naming both.
 */
import { backoffDelayMs, type BackoffSchedule } from "@chaingate/backoff";
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { assertIdentifier, type DatabaseLogger } from "./create-database.ts";
import { isConnectionFailure } from "./database-unavailable-error.ts";

/** While the database is unreachable at start-up: 0.5 s, doubling up to 5 s. */
const STARTUP_RETRY: BackoffSchedule = { firstMs: 500, maxMs: 5_000 };

/** Migrations listed in code (ordered by name), so they load the same under tsx and bundlers. */
export type MigrationList = Record<string, Migration>;

/** Applies the migrations not yet applied; resolves with their names. Any kysely of the service's tables will do. */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  schema: string,
  migrations: MigrationList,
  logger?: DatabaseLogger,
): Promise<string[]> {
  // Migrations see the database untyped (they create the tables the type describes).
  const untyped = db as unknown as Kysely<unknown>;
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(untyped, schema, migrations, logger);
    } catch (error) {
      if (!isConnectionFailure(error) && !isConnectionFailure((error as Error).cause)) throw error;
      const delay = backoffDelayMs(attempt, STARTUP_RETRY);
      logger?.warn({ err: error, schema, attempt, retry_in_ms: delay }, "database unavailable at start-up; waiting for it");
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** kysely's record of applied migrations, in the service's schema. */
const MIGRATION_TABLE = "kysely_migration";

async function migrateOnce(db: Kysely<unknown>, schema: string, migrations: MigrationList, logger?: DatabaseLogger): Promise<string[]> {
  assertIdentifier(schema);
  await createSchemaIfMissing(db, schema);
  const applied = await appliedMigrations(db, schema);
  const newer = applied.filter((name) => !(name in migrations));
  if (newer.length) {
    const pending = Object.keys(migrations).filter((name) => !applied.includes(name));
    if (pending.length)
      throw new Error(
        `Schema ${schema} has migrations this release does not know (${newer.join(", ")}) while its own ${pending.join(", ")} are not applied: no release produces that history; restore the release that migrated it`,
      );
    logger?.warn({ schema, newer }, "the schema is a newer release's (a rollback): starting on it without migrating");
    return [];
  }
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw new Error(`Migrating schema ${schema} failed`, { cause: error });
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}

async function createSchemaIfMissing(db: Kysely<unknown>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    // Two replicas racing on the catalog: the loser sees a unique violation, the schema exists.
    if ((error as { code?: string }).code !== "23505") throw error;
  }
}

/** Names of the migrations applied to the schema; none before the first run. */
async function appliedMigrations(db: Kysely<unknown>, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(`${schema}.${MIGRATION_TABLE}`)}`
    .execute(db)
    .catch((error: { code?: string }) => {
      if (error.code === "42P01") return { rows: [] }; // undefined_table: never migrated
      throw error;
    });
  return rows.map((row) => row.name);
}
