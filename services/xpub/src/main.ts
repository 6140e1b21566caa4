/** The xpub process: registers BIP84 account keys and issues their receive addresses. */
import { ConfigError, loadConfig, redactConfig } from "@chaingate/config";
import { onShutdownSignal } from "@chaingate/http";
import { createLogger } from "@chaingate/logger";
import { xpubConfigSchema, type XpubConfig } from "./config.ts";
import { createXpubService } from "./create-xpub-service.ts";

let config: XpubConfig;
try {
  config = loadConfig("xpub", xpubConfigSchema, process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const logger = createLogger({ service: "xpub", level: config.LOG_LEVEL });
logger.info({ config: redactConfig(config) }, "starting");
const service = await createXpubService(config, logger);
logger.info({ url: service.url }, "listening");
onShutdownSignal(logger, () => service.close());
