/**
 * A service process's whole life: config from the environment (a bad variable stops the process
 * with a message naming it; so does a missing INTERNAL_TOKEN unless ALLOW_NO_INTERNAL_TOKEN says
 * so), the logger, start, the effective config logged with secrets redacted, and a graceful stop
 * on SIGINT/SIGTERM. Every service's `main.ts` is one call to it.
 */
import { ConfigError, loadConfig, redactConfig } from "@chaingate/config";
import { createLogger, type Logger } from "@chaingate/logger";
import type { z } from "zod";
import { onShutdownSignal } from "./on-shutdown-signal.ts";

/** The part of serviceSettings this check reads. */
export interface InternalTokenSettings {
  INTERNAL_TOKEN?: string | undefined;
  ALLOW_NO_INTERNAL_TOKEN?: boolean | undefined;
}

/**
 * Why a service must not start: no INTERNAL_TOKEN and no explicit ALLOW_NO_INTERNAL_TOKEN. A
 * deployment that lost its token (a Secret without the key) would otherwise serve its internal
 * routes to anyone who can reach the pod.
 */
export function missingInternalTokenRefusal(config: InternalTokenSettings): string | undefined {
  if (!("ALLOW_NO_INTERNAL_TOKEN" in config) || config.INTERNAL_TOKEN !== undefined || config.ALLOW_NO_INTERNAL_TOKEN) return undefined;
  return "INTERNAL_TOKEN is not set, so internal routes would accept any request: set it (the same on every service), or ALLOW_NO_INTERNAL_TOKEN=true for a dev or test stack.";
}

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
  const refusal = missingInternalTokenRefusal(config as InternalTokenSettings);
  if (refusal) {
    console.error(`${name}: ${refusal}`);
    process.exit(1);
  }
  const level = (config as { LOG_LEVEL?: string }).LOG_LEVEL ?? "info";
  const logger = createLogger({ service: name, level });
  logger.info({ config: redactConfig(config as Record<string, unknown>) }, "starting");
  const service = await start(config, logger);
  logger.info({ url: service.url }, "listening");
  onShutdownSignal(logger, () => service.close());
}
