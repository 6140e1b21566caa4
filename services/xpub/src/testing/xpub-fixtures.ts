/**
 * The xpub service as test fixtures (vitest `test.extend`, see @chaingate/testing's
 * `integrationTest`): started once per test file over the file's database and bus, when a test
 * first asks for it, and closed after the file.
 *
 *   const it = xpubTest;
 *   xpubTest.scoped({ xpubSettings: { XPUB_MAX_ADDRESSES_PER_KEY: "2" } }); // settings of the file's own
 */
import { createDatabase, type Database } from "@chaingate/db";
import { internalEdge, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import type { XpubService } from "../create-xpub-service.ts";
import { XPUB_SCHEMA, type XpubDatabase } from "../infra/database-schema.ts";
import { startTestXpub } from "./start-test-xpub.ts";

export interface XpubFixtures {
  /** Settings over the service's test defaults, for the whole file (set with `xpubTest.scoped`). */
  xpubSettings: Record<string, string | undefined>;
  /** The service, with the internal token the edge sends and the file's own NATS namespace. */
  xpub: XpubService;
  /** Its internal edge, called as the gateway calls it. */
  edge: InternalEdge;
  /** The service's schema over the file's database, as the operator's CLI opens it (the service need not run). */
  xpubDb: Database<XpubDatabase>;
}

export const xpubTest = integrationTest.extend<XpubFixtures>({
  xpubSettings: [{}, { scope: "file" }],
  xpub: [
    async ({ database, bus, xpubSettings }, use) => {
      const xpub = await startTestXpub(database.connectionString, { INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, ...bus.env, ...xpubSettings });
      try {
        await use(xpub);
      } finally {
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
  edge: [async ({ xpub }, use) => use(internalEdge(xpub)), { scope: "file" }],
  xpubDb: [
    async ({ database }, use) => {
      const connection = createDatabase<XpubDatabase>({ connectionString: database.connectionString, schema: XPUB_SCHEMA });
      try {
        await use(connection);
      } finally {
        await connection.close();
      }
    },
    { scope: "file" },
  ],
});
