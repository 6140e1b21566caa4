/**
 * Release N on release N+1's schema, as after `helm rollback` or an old pod restarting during a
 * rollout: every service with a database starts once (migrating its schema), then its schema gets
 * a migration this release does not know (the next release's: an expand-only change), and the
 * same code starts again on it and answers ready.
 */
import pg from "pg";
import { describe, expect } from "vitest";
import { createServiceStack, type ServiceStack } from "./service-stack.ts";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

/** Each service with its schema. */
const SERVICES = [
  { name: "gateway", schema: "gateway" },
  { name: "xpub", schema: "xpub" },
  { name: "delivery", schema: "delivery" },
  { name: "scanner", schema: "scanner" },
];

/** Every service of SERVICES started once over the file's database and bus (each migrated its schema). */
const it = drillTest.extend<{ migratedStack: ServiceStack }>({
  migratedStack: [
    async ({ database, bus }, use) => {
      const stack = createServiceStack();
      try {
        const shared = { DATABASE_URL: database.connectionString, ...bus.env };
        for (const { name } of SERVICES) await stack.start(name, name, { ...shared, BITCOIN_NETWORK: "litecoin-regtest" });
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: "file" },
  ],
});

/** What the next release's migration does: a new nullable column and its record in the schema's migration table. */
async function applyNextReleaseMigration(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`create table ${schema}.next_release_things (id bigint primary key)`);
    await client.query(`insert into ${schema}.kysely_migration (name, timestamp) values ('9999-next-release', now())`);
  } finally {
    await client.end();
  }
}

describe("release N on release N+1's schema (a rollback)", () => {
  it.for(SERVICES)(
    "$name starts again on a schema with a migration it does not know, and answers ready",
    {
      timeout: 60_000 + PRODUCT_START_MS,
    },
    async ({ name, schema }, { migratedStack: stack, database }) => {
      await applyNextReleaseMigration(database.connectionString, schema);
      await stack.restart(name, "SIGTERM");
      // The scanner is ready once it has loaded its watch projection from the feed: a moment after it answers.
      const readiness = async () => {
        const ready = await fetch(`${stack.url(name)}/readyz`);
        return { status: ready.status, body: (await ready.json()) as unknown };
      };
      await expect.poll(readiness, { timeout: 30_000 }).toMatchObject({ status: 200, body: { status: "ready" } });
      expect(stack.processes[name]!.output()).toContain("the schema is a newer release's (a rollback): starting on it without migrating");
    },
  );
});
