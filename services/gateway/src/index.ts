export { createGateway, type Gateway } from "./create-gateway.ts";
export { gatewayConfigSchema, type GatewayConfig } from "./config.ts";
export { INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE } from "./http/authenticate-request.ts";
