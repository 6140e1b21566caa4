/**
 * Runs a service's migrations with kysely's Migrator, in the service's schema. Safe to run from
 * several replicas at once: the Migrator holds an advisory lock while it works.
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { assertIdentifier } from "./create-database.ts";

/** Migrations listed in code (ordered by name), so they load the same under tsx and bundlers. */
export type MigrationList = Record<string, Migration>;

export async function migrateToLatest(db: Kysely<unknown>, schema: string, migrations: MigrationList): Promise<string[]> {
  assertIdentifier(schema);
  await createSchemaIfMissing(db, schema);
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
