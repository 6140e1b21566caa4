import { createLogger } from "@chaingate/logger";

/** A logger for tests: pino's silent level writes nothing. */
export const silentLogger = createLogger({ service: "test", level: "silent" });
