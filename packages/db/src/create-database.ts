/**
 * kysely over a pg pool whose connections default to the service's own schema, so queries name
 * tables without a schema and no service reads another's tables by accident.
 *
 * The pool survives its database: an idle connection the server terminates (a restart, a
 * failover, `pg_terminate_backend`) is logged and dropped, never an unhandled 'error' event that
 * kills the process; a new connection is opened by the next query. While the database is
 * unreachable a query fails within the connect and query timeouts instead of hanging.
 */
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import { DatabaseUnavailableError, isConnectionFailure } from "./database-unavailable-error.ts";

export const DEFAULT_POOL_SIZE = 10;
/**
 * Longest wait for a connection (pg counts the wait for a free pooled one too, so it must outlast
 * a busy moment): a database that does not answer fails the query instead of hanging it. A refused
 * connection (the database down) fails at once whatever this is.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Client-side deadline of one query (includes the wait for a pooled connection's answer). */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
/** TCP keepalive on every connection, so a half-open socket (a stalled network) is noticed by the kernel. */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/** The narrow logger the pool reports to (pino satisfies it). */
export interface DatabaseLogger {
  warn(fields: object, message: string): void;
}

export interface DatabaseOptions {
  connectionString: string;
  /** The service's schema, e.g. "gateway". */
  schema: string;
  poolSize?: number;
  applicationName?: string;
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  /** Where connection losses of idle clients are reported; they are survived either way. */
  logger?: DatabaseLogger;
}

export interface Database<DB> {
  db: Kysely<DB>;
  pool: pg.Pool;
  schema: string;
  /** Throws unless the database answers; used by `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * int8 (bigserial ids, COUNT(*)) as a JS number while it is exact, and an error beyond 2^53 rather
 * than a silently rounded value. Amounts (wei, token units) belong in `numeric` columns, which pg
 * returns as strings. Set per pool, not on pg's global registry, so no other library is affected.
 */
export function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} does not fit a JS number exactly: store amounts as numeric`);
  return parsed;
}

const chaingateTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === pg.types.builtins.INT8 && format !== "binary") return parseInt8;
    return pg.types.getTypeParser(oid, format as "text");
  },
} as pg.CustomTypesConfig;

export function createDatabase<DB>(options: DatabaseOptions): Database<DB> {
  assertIdentifier(options.schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    application_name: options.applicationName ?? options.schema,
    options: `-c search_path=${options.schema}`,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    query_timeout: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    types: chaingateTypes,
  });
  // A connection the server terminates emits 'error': on the pool while idle (pg then drops it),
  // on the client while checked out (inside a transaction between two queries, say). Unheard, either
  // is thrown and ends the process; heard, the next query on that client fails, and the client is
  // discarded when it is released.
  const reportLost = (error: Error) =>
    options.logger?.warn({ err: error, schema: options.schema }, "database connection lost; the pool reconnects on demand");
  pool.on("error", reportLost);
  pool.on("connect", (client) => client.on("error", reportLost));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: withConnectionFailuresClassified(pool) }) });
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

/**
 * The pool as kysely sees it, with connection failures (refused, terminated, timed out) turned into
 * DatabaseUnavailableError, so every service maps an outage to one documented 503.
 */
function withConnectionFailuresClassified(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const classify = (error: unknown): never => {
    throw isConnectionFailure(error) ? new DatabaseUnavailableError(error) : error;
  };
  return {
    async connect() {
      const client = await pool.connect().catch(classify);
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = {
          // Cursors (streamed queries) pass through as they are: only promises can be classified.
          query: ((...args: [string, unknown[]]) => {
            const result = client.query(...args) as unknown;
            return result instanceof Promise ? result.catch(classify) : result;
          }) as PostgresPoolClient["query"],
          release: () => client.release(),
        };
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

export function assertIdentifier(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
}
