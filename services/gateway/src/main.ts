/** The gateway process: the only public HTTP edge. */
import { ConfigError, loadConfig, redactConfig } from "@chaingate/config";
import { onShutdownSignal } from "@chaingate/http";
import { createLogger } from "@chaingate/logger";
import { skipTracing } from "@chaingate/telemetry";
import { gatewayConfigSchema, type GatewayConfig } from "./config.ts";
import { createGateway } from "./create-gateway.ts";

let config: GatewayConfig;
try {
  config = loadConfig("gateway", gatewayConfigSchema);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const logger = createLogger({ service: "gateway", level: config.LOG_LEVEL });
logger.info({ config: redactConfig(config) }, "starting");
// Proxied requests are traced by traceparent only; spans start in the service that owns them.
skipTracing({ incoming: (path) => path.startsWith("/api/v1/") && !path.startsWith("/api/v1/openapi.json"), outgoingUndici: true });
const gateway = await createGateway(config, logger);
logger.info({ url: gateway.url }, "listening");
onShutdownSignal(logger, () => gateway.close());
