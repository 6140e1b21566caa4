/**
 * A service process's whole life: config from the environment (a bad variable stops the process
 * with a message naming it), the logger, start, the effective config logged with secrets
 * redacted, and a graceful stop on SIGINT/SIGTERM. Every service's `main.ts` is one call to it.
 */
import { ConfigError, loadConfig, redactConfig } from "@chaingate/config";
import { createLogger, type Logger } from "@chaingate/logger";
import type { z } from "zod";
import { onShutdownSignal } from "./on-shutdown-signal.ts";

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

export async function runService<Schema extends z.ZodObject>(
  name: string,
  schema: Schema,
  start: (config: z.infer<Schema>, logger: Logger) => Promise<RunningService>,
): Promise<void> {
  let config: z.infer<Schema>;
  try {
    config = loadConfig(name, schema, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const level = (config as { LOG_LEVEL?: string }).LOG_LEVEL ?? "info";
  const logger = createLogger({ service: name, level });
  logger.info({ config: redactConfig(config as Record<string, unknown>) }, "starting");
  const service = await start(config, logger);
  logger.info({ url: service.url }, "listening");
  onShutdownSignal(logger, () => service.close());
}
