export { createLogger, REDACTED_PATHS, type CreateLoggerOptions, type Logger } from "./create-logger.ts";
