export { ConfigError, loadConfig, redactConfig } from "./load-config.ts";
export { redactUrl } from "./redact-url.ts";
export { databaseSettings, DEFAULT_DATABASE_URL, DEFAULT_NATS_URL, natsSettings, serviceSettings } from "./service-settings.ts";
export * as env from "./env-types.ts";
