/**
 * The gateway as test fixtures (vitest `test.extend`, see @chaingate/testing's `integrationTest`):
 * started once per test file over the file's database when a test first asks for it, and closed
 * after the file.
 *
 *   const it = gatewayTest;
 *   gatewayTest.scoped({ gatewaySettings: { QUOTA_API_KEYS_PER_ACCOUNT: "3" } }); // settings of the file's own
 *
 * A file whose gateway proxies to a stand-in for an internal service names `standInGateway`: a
 * gateway (with `gatewaySettings`) in front of an HTTP server that answers with the file's listener.
 *
 *   gatewayTest.scoped({ standInSettings: { urlSettings: ["DELIVERY_URL"], listener: (req, res) => { … } } });
 *   it("…", async ({ standInGateway, standInKey }) => { … });
 *
 * A file whose gateway points at other stand-ins it starts itself (their URLs known only once they
 * listen) extends gatewayTest with fixtures of its own names, starting the gateway with
 * startTestGateway over the same `database`.
 *
 * Not re-exported from testing/index.ts: it imports vitest, which benchmarks cannot load.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createDatabase, migrateToLatest, type Database } from "@chaingate/db";
import { integrationTest } from "@chaingate/testing/fixtures";
import { GATEWAY_SCHEMA, type GatewayDatabase } from "../infra/database-schema.ts";
import { gatewayMigrations } from "../infra/migrations/index.ts";
import { createAccountWithKey } from "./run-admin-cli.ts";
import { startTestGateway, type TestGateway, type TestGatewayOptions } from "./start-test-gateway.ts";

/** A stand-in for the internal service the gateway proxies to. */
export interface StandInSettings {
  /** How the stand-in answers (default: 200 `{}` to every call). */
  listener: http.RequestListener;
  /** The gateway settings that take the stand-in's URL (default BTC_PROXY_URL alone). */
  urlSettings: string[];
}

export interface GatewayFixtures {
  /** Settings over the gateway's test defaults, for the whole file (set with `gatewayTest.scoped`). */
  gatewaySettings: Record<string, string | undefined>;
  /** How the test gateway is started (answers checked against the OpenAPI document by default). */
  gatewayOptions: TestGatewayOptions;
  /** The gateway over the file's database. */
  gateway: TestGateway;
  /** The gateway's schema over the file's database, migrated (the gateway need not run). */
  gatewayDb: Database<GatewayDatabase>;
  /** The file's stand-in for an internal service (set with `gatewayTest.scoped`). */
  standInSettings: StandInSettings;
  /** The stand-in, listening on 127.0.0.1 for the file; its URL. */
  standInUpstream: string;
  /**
   * A gateway (with `gatewaySettings`) over the file's database that proxies to the stand-in. Its
   * answers are not checked against the OpenAPI document: they are the stand-in's.
   */
  standInGateway: TestGateway;
  /** An account's API key on the stand-in's gateway. */
  standInKey: string;
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
  standInSettings: [
    {
      listener: (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
      urlSettings: ["BTC_PROXY_URL"],
    },
    { scope: "file" },
  ],
  standInUpstream: [
    async ({ standInSettings }, use) => {
      const server = http.createServer(standInSettings.listener);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      } finally {
        // Calls a test left open (a stalled answer, a held body) would hold the close until they end.
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
    { scope: "file" },
  ],
  standInGateway: [
    async ({ database, gatewaySettings, standInSettings, standInUpstream }, use) => {
      const urls = Object.fromEntries(standInSettings.urlSettings.map((name) => [name, standInUpstream]));
      const settings = { ...gatewaySettings, ...urls };
      const gateway = await startTestGateway(settings, database.connectionString, { checkAnswers: false });
      try {
        await use(gateway);
      } finally {
        await gateway.close();
      }
    },
    { scope: "file" },
  ],
  standInKey: [async ({ standInGateway }, use) => use((await createAccountWithKey(standInGateway.databaseUrl)).key), { scope: "file" }],
});
