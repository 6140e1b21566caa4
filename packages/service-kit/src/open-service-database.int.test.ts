/**
 * A service's migrations run on a connection of their own: a migration longer than the request
 * pool's DATABASE_QUERY_TIMEOUT_MS completes, and the pool the service gets keeps that timeout.
 */
import type { MigrationList } from "@chaingate/db";
import { integrationTest as it } from "@chaingate/testing/fixtures";
import { expect } from "vitest";
import { openServiceDatabase } from "./open-service-database.ts";

/** pg_sleep(1.5), three times the request timeout below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the database untyped
const sleep = (db: any) => db.selectNoFrom((eb: any) => eb.fn("pg_sleep", [eb.val(1.5)]).as("slept")).execute();

const migrations: MigrationList = {
  "0001_rewrite": {
    up: async (db) => {
      await sleep(db);
      await db.schema.createTable("rewritten").addColumn("id", "integer").execute();
    },
  },
};

it("runs a migration longer than the request timeout to its end; requests keep their timeout", async ({ database: testDatabase }) => {
  const settings = { DATABASE_URL: testDatabase.connectionString, DATABASE_QUERY_TIMEOUT_MS: 500 };
  const database = await openServiceDatabase<{ kysely_migration: { name: string } }>({
    settings,
    schema: "slow_migration",
    applicationName: "test",
    migrations,
  });
  try {
    const rows = await database.db.selectFrom("kysely_migration").select("name").execute();
    expect(rows).toEqual([{ name: "0001_rewrite" }]);
    // A request past DATABASE_QUERY_TIMEOUT_MS fails as the database being unavailable (a 503 to a caller).
    await expect(sleep(database.db)).rejects.toThrow("The database is unavailable");
  } finally {
    await database.close();
  }
});
