/** A gateway on a free loopback port over a fresh test database, for integration tests. */
import { loadConfig } from "@chaingate/config";
import { createTestDatabase, silentLogger } from "@chaingate/testing";
import { gatewayConfigSchema } from "../config.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";

export interface TestGateway extends Gateway {
  databaseUrl: string;
}

export async function startTestGateway(env: Record<string, string | undefined> = {}, databaseUrl?: string): Promise<TestGateway & { dropDatabase(): Promise<void> }> {
  const database = databaseUrl ? undefined : await createTestDatabase();
  const url = databaseUrl ?? database!.connectionString;
  const config = loadConfig("gateway", gatewayConfigSchema, { PORT: "0", DATABASE_URL: url, ACCESS_LOG: "false", ...env });
  const gateway = await createGateway(config, silentLogger);
  await gateway.ready;
  return { ...gateway, databaseUrl: url, dropDatabase: async () => database?.drop() };
}
