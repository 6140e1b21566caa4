/**
 * A fresh, empty database for one test file, dropped afterwards: test files run in parallel
 * against one Postgres without seeing each other's rows.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  connectionString: string;
  /** Runs one statement on the database (a small pool opened on first use) and returns its rows. */
  query<Row = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (!serverUrl) throw new Error("DATABASE_URL is not set (the vitest global set-up provides it)");
  const name = `chaingate_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let pool: pg.Pool | undefined;
  return {
    connectionString: url.toString(),
    async query<Row>(text: string, values: readonly unknown[] = []) {
      if (!pool) {
        pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
        // An idle client ended by the drop (its backend terminated) must not fail the test run.
        pool.on("error", () => {});
      }
      return (await pool.query(text, [...values])).rows as Row[];
    },
    async drop() {
      await pool?.end();
      await withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
