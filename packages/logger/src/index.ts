export {
  bufferedStdout,
  createLogger,
  REDACTED_PATHS,
  type CreateLoggerOptions,
  type LineDestination,
  type Logger,
} from "./create-logger.ts";
