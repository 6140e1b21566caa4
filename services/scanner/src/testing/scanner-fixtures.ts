/**
 * The scanner's test fixtures (vitest `test.extend`, see @chaingate/testing's `integrationTest`):
 * a recorder on the file's bus that stands in for the registry and reads back what the scanner
 * publishes, and the scanner's migrated schema over the file's database. The scanner itself
 * follows a node of the file's choosing, so a test file extends once more with its own `scanner`
 * fixture, started with `startTestScanner` over the file's database and the recorder's namespace:
 *
 *   const it = scannerTest.extend<{ scanner: ScannerService }>({
 *     scanner: [async ({ database, recorder, anvil }, use) => { … startTestScanner(database, recorder, { ETH_RPC_URL: anvil.url }) … }, { scope: "file" }],
 *   });
 *
 * Not re-exported from `testing/index.ts`: it imports vitest (scripts/testing-entries.test.ts).
 */
import { createDatabase, migrateToLatest, type Database } from "@chaingate/db";
import { silentLogger } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { SCANNER_SCHEMA, type ScannerDatabase } from "../infra/database-schema.ts";
import { scannerMigrations } from "../infra/migrations/index.ts";
import { startEventRecorder, type EventRecorder } from "./scanner-harness.ts";

export interface ScannerFixtures {
  /** Publishes the registry's watch feed and records transfer.matched and block.processed, on the file's bus. */
  recorder: EventRecorder & { natsUrl: string };
  /** The scanner's schema over the file's database, migrated (the service need not run). */
  scannerDb: Database<ScannerDatabase>;
}

export const scannerTest = integrationTest.extend<ScannerFixtures>({
  recorder: [
    async ({ bus }, use) => {
      const recorder = await startEventRecorder(bus.url, bus.namespace);
      try {
        await use(Object.assign(recorder, { natsUrl: bus.url }));
      } finally {
        await recorder.close();
      }
    },
    { scope: "file" },
  ],
  scannerDb: [
    async ({ database }, use) => {
      const connection = createDatabase<ScannerDatabase>({
        connectionString: database.connectionString,
        schema: SCANNER_SCHEMA,
        logger: silentLogger,
      });
      try {
        await migrateToLatest(connection.db, SCANNER_SCHEMA, scannerMigrations);
        await use(connection);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
});
