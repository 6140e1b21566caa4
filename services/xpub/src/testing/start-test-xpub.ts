/** An xpub service on a free loopback port, in this process, for integration tests. */
import { loadConfig } from "@chaingate/config";
import type { Logger } from "@chaingate/logger";
import { silentLogger } from "@chaingate/testing";
import { xpubConfigSchema } from "../config.ts";
import { createXpubService, type XpubService } from "../create-xpub-service.ts";

/** Starts the service over `databaseUrl` (which must exist); `env` overrides its config. */
export async function startTestXpub(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  logger: Logger = silentLogger,
): Promise<XpubService> {
  const config = loadConfig("xpub", xpubConfigSchema, { PORT: "0", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ...env });
  return createXpubService(config, logger);
}
