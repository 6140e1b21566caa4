/**
 * Release N on release N+1's schema, as after `helm rollback` or an old pod restarting during a
 * rollout: every service with a database starts once (migrating its schema), then its schema gets
 * a migration this release does not know (the next release's: an expand-only change), and the
 * same code starts again on it and answers ready.
 */
import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@chaingate/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceStack, type ServiceStack } from "./service-stack.ts";

/** Each service with its schema. */
const SERVICES = [
  { name: "gateway", schema: "gateway" },
  { name: "xpub", schema: "xpub" },
  { name: "delivery", schema: "delivery" },
  { name: "scanner", schema: "scanner" },
];

let database: TestDatabase;
let stack: ServiceStack;

beforeAll(async () => {
  database = await createTestDatabase();
  stack = createServiceStack();
  const shared = {
    DATABASE_URL: database.connectionString,
    NATS_URL: process.env.NATS_URL!,
    NATS_NAMESPACE: `r${randomBytes(4).toString("hex")}`,
  };
  for (const { name } of SERVICES) await stack.start(name, name, { ...shared, BITCOIN_NETWORK: "litecoin-regtest" });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await database?.drop();
});

/** What the next release's migration does: a new nullable column and its record in the schema's migration table. */
async function applyNextReleaseMigration(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    await client.query(`create table ${schema}.next_release_things (id bigint primary key)`);
    await client.query(`insert into ${schema}.kysely_migration (name, timestamp) values ('9999-next-release', now())`);
  } finally {
    await client.end();
  }
}

describe("release N on release N+1's schema (a rollback)", () => {
  it.each(SERVICES)("$name starts again on a schema with a migration it does not know, and answers ready", async ({ name, schema }) => {
    await applyNextReleaseMigration(schema);
    await stack.restart(name, "SIGTERM");
    // The scanner is ready once it has loaded its watch projection from the feed: a moment after it answers.
    const readiness = async () => {
      const ready = await fetch(`${stack.url(name)}/readyz`);
      return { status: ready.status, body: (await ready.json()) as unknown };
    };
    await expect.poll(readiness, { timeout: 30_000 }).toMatchObject({ status: 200, body: { status: "ready" } });
    expect(stack.processes[name]!.output()).toContain("the schema is a newer release's (a rollback): starting on it without migrating");
  });
});
