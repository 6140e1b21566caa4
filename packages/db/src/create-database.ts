/**
 * kysely over a pg pool whose connections default to the service's own schema, so queries name
 * tables without a schema and no service reads another's tables by accident.
 */
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";

// int8 (COUNT(*), bigserial) arrives as a string by default; our ids and counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export const DEFAULT_POOL_SIZE = 10;

export interface DatabaseOptions {
  connectionString: string;
  /** The service's schema, e.g. "gateway". */
  schema: string;
  poolSize?: number;
  applicationName?: string;
}

export interface Database<DB> {
  db: Kysely<DB>;
  pool: pg.Pool;
  schema: string;
  /** Throws unless the database answers; used by `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase<DB>(options: DatabaseOptions): Database<DB> {
  assertIdentifier(options.schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    application_name: options.applicationName ?? options.schema,
    options: `-c search_path=${options.schema}`,
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    schema: options.schema,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

export function assertIdentifier(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
}
