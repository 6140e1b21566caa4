/** The btc-proxy process: everything under /api/v1/btc except xpub, in front of Bitcoin nodes. */
import { ConfigError, loadConfig, redactConfig } from "@chaingate/config";
import { onShutdownSignal } from "@chaingate/http";
import { createLogger } from "@chaingate/logger";
import { btcProxyConfigSchema, type BtcProxyConfig } from "./config.ts";
import { createBtcProxy } from "./create-btc-proxy.ts";

let config: BtcProxyConfig;
try {
  config = loadConfig("btc-proxy", btcProxyConfigSchema);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const logger = createLogger({ service: "btc-proxy", level: config.LOG_LEVEL });
logger.info({ config: redactConfig(config) }, "starting");
const proxy = await createBtcProxy(config, logger);
logger.info({ url: proxy.url }, "listening");
onShutdownSignal(logger, () => proxy.close());
