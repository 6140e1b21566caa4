export { ConfigError, loadConfig, redactConfig } from "./load-config.ts";
export * as env from "./env-types.ts";
