/**
 * A fresh, empty database for one test file, dropped afterwards: test files run in parallel
 * against one Postgres without seeing each other's rows.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  connectionString: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (!serverUrl) throw new Error("DATABASE_URL is not set (the vitest global set-up provides it)");
  const name = `chaingate_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    connectionString: url.toString(),
    drop: () => withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
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
