import { sql, type Kysely } from "kysely";
import { describe, expect } from "vitest";
import { integrationTest as it } from "@chaingate/testing/fixtures";
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

describe("migrateToLatest", () => {
  it("creates the service's schema, migrates once even when replicas race, and queries land in the schema", async ({
    database: testDatabase,
  }) => {
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

describe("an older release on a newer release's schema (a rollback)", () => {
  const newerRelease: MigrationList = {
    ...migrations,
    "0002_things_colour": { up: (db: Kysely<unknown>) => db.schema.alterTable("things").addColumn("colour", "text").execute() },
  };

  it("starts without migrating when every migration it knows is applied, and says so", async ({ database: testDatabase }) => {
    const database = createDatabase<unknown>({ connectionString: testDatabase.connectionString, schema: "rolled_back" });
    try {
      expect(await migrateToLatest(database.db, "rolled_back", newerRelease)).toEqual(["0001_things", "0002_things_colour"]);
      const warnings: Array<{ fields: object; message: string }> = [];
      const logger = { warn: (fields: object, message: string) => warnings.push({ fields, message }) };
      expect(await migrateToLatest(database.db, "rolled_back", migrations, logger)).toEqual([]);
      expect(warnings).toEqual([
        {
          fields: { schema: "rolled_back", newer: ["0002_things_colour"] },
          message: "the schema is a newer release's (a rollback): starting on it without migrating",
        },
      ]);
      // The newer release's column is still there for the roll forward.
      const { rows } = await sql<{ column: string }>`
        select column_name as column from information_schema.columns where table_schema = 'rolled_back' and table_name = 'things' order by 1`.execute(
        database.db,
      );
      expect(rows.map((row) => row.column)).toEqual(["colour", "id", "name"]);
    } finally {
      await database.close();
    }
  });

  it("refuses a history no release produces: a migration it does not know while one of its own is pending", async ({
    database: testDatabase,
  }) => {
    const database = createDatabase<unknown>({ connectionString: testDatabase.connectionString, schema: "diverged" });
    try {
      await migrateToLatest(database.db, "diverged", newerRelease);
      const other: MigrationList = { ...migrations, "0002_other": { up: async () => {} } };
      await expect(migrateToLatest(database.db, "diverged", other)).rejects.toThrow(
        "Schema diverged has migrations this release does not know (0002_things_colour) while its own 0002_other are not applied",
      );
    } finally {
      await database.close();
    }
  });
});
