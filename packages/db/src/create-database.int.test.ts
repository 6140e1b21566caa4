import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrivatePostgres, type PrivatePostgres } from "@chaingate/testing";
import { createDatabase, DatabaseUnavailableError, migrateToLatest, type Database } from "./index.ts";

let server: PrivatePostgres;
let database: Database<unknown>;
const lost: unknown[] = [];

beforeAll(async () => {
  server = await startPrivatePostgres();
  database = createDatabase({
    connectionString: server.url,
    schema: "drill",
    poolSize: 4,
    connectTimeoutMs: 500,
    logger: { warn: (fields) => lost.push(fields) },
  });
});
afterAll(async () => {
  await database?.close();
  await server?.destroy();
});

async function fillPool(): Promise<void> {
  // Four concurrent queries leave four idle connections in the pool.
  await Promise.all([1, 2, 3, 4].map(() => sql`select pg_sleep(0.05)`.execute(database.db)));
}

describe("createDatabase against a Postgres that restarts and crashes", () => {
  it("survives the server terminating its idle connections (a restart), and reconnects on the next query", async () => {
    await fillPool();
    await server.restart();
    // The idle clients were terminated by the server: reported, not thrown at the process.
    await expect.poll(() => lost.length).toBeGreaterThan(0);
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it("fails queries fast with DatabaseUnavailableError while the server is down, and recovers when it is back", async () => {
    await fillPool();
    await server.kill();
    const started = Date.now();
    const outcome = await database.ping().then(
      () => "answered",
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(DatabaseUnavailableError);
    expect((outcome as DatabaseUnavailableError).retryable).toBe(true);
    // Connect timeout 500 ms; refused connections fail at once.
    expect(Date.now() - started).toBeLessThan(2_000);
    await server.start();
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it("reads int8 as an exact number and refuses one a double would round", async () => {
    const { rows } = await sql<{ small: number }>`select 9007199254740991::int8 as small`.execute(database.db);
    expect(rows[0]!.small).toBe(Number.MAX_SAFE_INTEGER);
    await expect(sql`select 9007199254740993::int8 as big`.execute(database.db)).rejects.toThrow(/does not fit a JS number exactly/);
    // Amounts live in numeric columns: exact strings.
    const amounts = await sql<{
      wei: string;
    }>`select 115792089237316195423570985008687907853269984665640564039457584007913129639935::numeric as wei`.execute(database.db);
    expect(amounts.rows[0]!.wei).toBe("115792089237316195423570985008687907853269984665640564039457584007913129639935");
  });
});

describe("migrateToLatest at start-up", () => {
  it("waits for a database that is down and migrates once it is up", async () => {
    await server.stop();
    const waits: unknown[] = [];
    const starting = createDatabase({ connectionString: server.url, schema: "late", connectTimeoutMs: 300 });
    const migrated = migrateToLatest(starting.db, "late", { "0001": { up: async () => {} } }, { warn: (fields) => waits.push(fields) });
    await expect.poll(() => waits.length, { timeout: 10_000 }).toBeGreaterThan(1);
    await server.start();
    await expect(migrated).resolves.toEqual(["0001"]);
    await starting.close();
  });
});

describe("a connection lost while checked out", () => {
  it("fails the transaction that held it, never the process, and the next one succeeds", async () => {
    const holder = createDatabase({ connectionString: server.url, schema: "drill", poolSize: 2 });
    const outcome = holder.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Between two queries of the transaction, the server goes away.
        await server.restart();
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
