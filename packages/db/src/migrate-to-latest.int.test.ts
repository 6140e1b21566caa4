import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@chaingate/testing";
import { createDatabase, migrateToLatest, type MigrationList } from "./index.ts";

const migrations: MigrationList = {
  "0001_things": {
    up: (db: Kysely<unknown>) =>
      db.schema
        .createTable("things")
        .addColumn("id", "serial", (c) => c.primaryKey())
        .addColumn("name", "text")
        .execute(),
  },
};

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await createTestDatabase();
});
afterAll(() => testDatabase.drop());

describe("migrateToLatest", () => {
  it("creates the service's schema, migrates once even when replicas race, and queries land in the schema", async () => {
    const replicas = [1, 2, 3].map(() =>
      createDatabase<{ things: { id: number; name: string } }>({ connectionString: testDatabase.connectionString, schema: "svc" }),
    );
    const applied = await Promise.all(replicas.map((r) => migrateToLatest(r.db, "svc", migrations)));
    expect(applied.flat()).toEqual(["0001_things"]);

    const [first] = replicas;
    await first!.db
      .insertInto("things")
      .values({ name: "a" } as never)
      .execute();
    const { rows } = await sql<{
      schema: string;
    }>`select table_schema as schema from information_schema.tables where table_name = 'things'`.execute(first!.db);
    expect(rows).toEqual([{ schema: "svc" }]);
    await first!.ping();
    await Promise.all(replicas.map((r) => r.close()));
  });
});
