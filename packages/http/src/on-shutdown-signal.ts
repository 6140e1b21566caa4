/**
 * Runs `shutdown` once on SIGINT or SIGTERM, then exits. A second signal exits at once.
 */
import type { Logger } from "@chaingate/logger";

export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
}
