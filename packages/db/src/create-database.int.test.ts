/**
 * `createDatabase` and `migrateToLatest` on a Postgres server of the file's own that restarts,
 * stops and crashes: lost connections are reported, never thrown at the process, queries fail fast
 * while it is down, and everything recovers when it is back.
 */
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { integrationTest } from "@chaingate/testing/fixtures";
import { createDatabase, DatabaseUnavailableError, migrateToLatest, type Database } from "./index.ts";

/** What the drill database's logger reported: the connections the server took away. */
const lost: unknown[] = [];

const it = integrationTest.extend<{
  /** `createDatabase` over the file's own server (`privatePostgres`): schema `drill`, four connections, 500 ms to connect. */
  drillDatabase: Database<unknown>;
}>({
  drillDatabase: [
    async ({ privatePostgres }, use) => {
      const database = createDatabase({
        connectionString: privatePostgres.url,
        schema: "drill",
        poolSize: 4,
        connectTimeoutMs: 500,
        logger: { warn: (fields) => lost.push(fields) },
      });
      try {
        await use(database);
      } finally {
        await database.close();
      }
    },
    { scope: "file" },
  ],
});

async function fillPool(database: Database<unknown>): Promise<void> {
  // Four concurrent queries leave four idle connections in the pool.
  await Promise.all([1, 2, 3, 4].map(() => sql`select pg_sleep(0.05)`.execute(database.db)));
}

describe("createDatabase against a Postgres that restarts and crashes", () => {
  it("survives the server terminating its idle connections (a restart), and reconnects on the next query", async ({
    drillDatabase,
    privatePostgres,
  }) => {
    await fillPool(drillDatabase);
    await privatePostgres.restart();
    // The idle clients were terminated by the server: reported, not thrown at the process.
    await expect.poll(() => lost.length).toBeGreaterThan(0);
    await expect(drillDatabase.ping()).resolves.toBeUndefined();
  });

  it("fails queries fast with DatabaseUnavailableError while the server is down, and recovers when it is back", async ({
    drillDatabase,
    privatePostgres,
  }) => {
    await fillPool(drillDatabase);
    await privatePostgres.kill();
    const started = Date.now();
    const outcome = await drillDatabase.ping().then(
      () => "answered",
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(DatabaseUnavailableError);
    expect((outcome as DatabaseUnavailableError).retryable).toBe(true);
    // Connect timeout 500 ms; refused connections fail at once.
    expect(Date.now() - started).toBeLessThan(2_000);
    await privatePostgres.start();
    await expect(drillDatabase.ping()).resolves.toBeUndefined();
  });

  it("reads int8 as an exact number and refuses one a double would round", async ({ drillDatabase }) => {
    const { rows } = await sql<{ small: number }>`select 9007199254740991::int8 as small`.execute(drillDatabase.db);
    expect(rows[0]!.small).toBe(Number.MAX_SAFE_INTEGER);
    await expect(sql`select 9007199254740993::int8 as big`.execute(drillDatabase.db)).rejects.toThrow(/does not fit a JS number exactly/);
    // Amounts live in numeric columns: exact strings.
    const amounts = await sql<{
      wei: string;
    }>`select 115792089237316195423570985008687907853269984665640564039457584007913129639935::numeric as wei`.execute(drillDatabase.db);
    expect(amounts.rows[0]!.wei).toBe("115792089237316195423570985008687907853269984665640564039457584007913129639935");
  });
});

describe("migrateToLatest at start-up", () => {
  it("waits for a database that is down and migrates once it is up", async ({ privatePostgres }) => {
    await privatePostgres.stop();
    const waits: unknown[] = [];
    const starting = createDatabase({ connectionString: privatePostgres.url, schema: "late", connectTimeoutMs: 300 });
    const migrated = migrateToLatest(starting.db, "late", { "0001": { up: async () => {} } }, { warn: (fields) => waits.push(fields) });
    await expect.poll(() => waits.length, { timeout: 10_000 }).toBeGreaterThan(1);
    await privatePostgres.start();
    await expect(migrated).resolves.toEqual(["0001"]);
    await starting.close();
  });
});

describe("a connection lost while checked out", () => {
  it("fails the transaction that held it, never the process, and the next one succeeds", async ({ privatePostgres }) => {
    const holder = createDatabase({ connectionString: privatePostgres.url, schema: "drill", poolSize: 2 });
    const outcome = holder.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Between two queries of the transaction, the server goes away.
        await privatePostgres.restart();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 2`.execute(trx);
      })
      .then(
        () => "committed",
        (error: unknown) => (error as Error).constructor.name,
      );
    expect(await outcome).toBe("DatabaseUnavailableError");
    await expect(holder.ping()).resolves.toBeUndefined();
    await holder.close();
  });
});
