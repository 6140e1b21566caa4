/**
 * The gateway as test fixtures (vitest `test.extend`, see @chaingate/testing's `integrationTest`):
 * started once per test file over the file's database when a test first asks for it, and closed
 * after the file.
 *
 *   const it = gatewayTest;
 *   gatewayTest.scoped({ gatewaySettings: { QUOTA_API_KEYS_PER_ACCOUNT: "3" } }); // settings of the file's own
 *
 * A file whose gateway points at stand-ins it starts itself (their URLs known only once they
 * listen) extends gatewayTest with fixtures of its own names, starting the gateway with
 * startTestGateway over the same `database`.
 *
 * Not re-exported from testing/index.ts: it imports vitest, which benchmarks cannot load.
 */
import { createDatabase, migrateToLatest, type Database } from "@chaingate/db";
import { integrationTest } from "@chaingate/testing/fixtures";
import { GATEWAY_SCHEMA, type GatewayDatabase } from "../infra/database-schema.ts";
import { gatewayMigrations } from "../infra/migrations/index.ts";
import { startTestGateway, type TestGateway, type TestGatewayOptions } from "./start-test-gateway.ts";

export interface GatewayFixtures {
  /** Settings over the gateway's test defaults, for the whole file (set with `gatewayTest.scoped`). */
  gatewaySettings: Record<string, string | undefined>;
  /** How the test gateway is started (answers checked against the OpenAPI document by default). */
  gatewayOptions: TestGatewayOptions;
  /** The gateway over the file's database. */
  gateway: TestGateway;
  /** The gateway's schema over the file's database, migrated (the gateway need not run). */
  gatewayDb: Database<GatewayDatabase>;
}

export const gatewayTest = integrationTest.extend<GatewayFixtures>({
  gatewaySettings: [{}, { scope: "file" }],
  gatewayOptions: [{}, { scope: "file" }],
  gateway: [
    async ({ database, gatewaySettings, gatewayOptions }, use) => {
      const gateway = await startTestGateway(gatewaySettings, database.connectionString, gatewayOptions);
      try {
        await use(gateway);
      } finally {
        await gateway.close();
      }
    },
    { scope: "file" },
  ],
  gatewayDb: [
    async ({ database }, use) => {
      const connection = createDatabase<GatewayDatabase>({ connectionString: database.connectionString, schema: GATEWAY_SCHEMA });
      try {
        await migrateToLatest(connection.db, GATEWAY_SCHEMA, gatewayMigrations);
        await use(connection);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
});
