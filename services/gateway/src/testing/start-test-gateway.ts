/** A gateway on a free loopback port over a fresh test database, for integration tests. */
import { loadConfig } from "@chaingate/config";
import { checkAnswers, createTestDatabase, silentLogger } from "@chaingate/testing";
import { gatewayConfigSchema } from "../config.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";

export interface TestGateway extends Gateway {
  databaseUrl: string;
}

export interface TestGatewayOptions {
  /**
   * Check every answer against the OpenAPI document (default true). Off for tests whose upstreams
   * are stand-ins rather than chaingate's services (the gateway's own tests).
   */
  checkAnswers?: boolean;
}

export async function startTestGateway(
  env: Record<string, string | undefined> = {},
  databaseUrl?: string,
  options: TestGatewayOptions = {},
): Promise<TestGateway & { dropDatabase(): Promise<void> }> {
  const database = databaseUrl ? undefined : await createTestDatabase();
  const url = databaseUrl ?? database!.connectionString;
  const config = loadConfig("gateway", gatewayConfigSchema, { PORT: "0", DATABASE_URL: url, ACCESS_LOG: "false", ...env });
  const gateway = await createGateway(config, silentLogger);
  // Every answer is checked against the OpenAPI document (@chaingate/testing check-answers.ts).
  if (options.checkAnswers ?? true) checkAnswers(gateway.server.server);
  await gateway.ready;
  return { ...gateway, databaseUrl: url, dropDatabase: async () => database?.drop() };
}
