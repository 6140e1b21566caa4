/** A gateway on a free loopback port over a fresh test database, for integration tests. */
import { Writable } from "node:stream";
import { loadConfig } from "@chaingate/config";
import { createLogger } from "@chaingate/logger";
import { createTestDatabase } from "@chaingate/testing";
import { gatewayConfigSchema } from "../config.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";

export interface TestGateway extends Gateway {
  databaseUrl: string;
}

export const silentLogger = createLogger({ service: "test", destination: new Writable({ write: (_c, _e, done) => done() }) });

export async function startTestGateway(env: Record<string, string | undefined> = {}, databaseUrl?: string): Promise<TestGateway & { dropDatabase(): Promise<void> }> {
  const database = databaseUrl ? undefined : await createTestDatabase();
  const url = databaseUrl ?? database!.connectionString;
  const config = loadConfig("gateway", gatewayConfigSchema, { PORT: "0", DATABASE_URL: url, ACCESS_LOG: "false", ...env });
  const gateway = await createGateway(config, silentLogger);
  await gateway.ready;
  return { ...gateway, databaseUrl: url, dropDatabase: async () => database?.drop() };
}
