export { ConfigError, loadConfig, redactConfig, redactUrl } from "./load-config.ts";
export { databaseSettings, DEFAULT_DATABASE_URL, DEFAULT_NATS_URL, natsSettings, serviceSettings } from "./service-settings.ts";
export * as env from "./env-types.ts";
