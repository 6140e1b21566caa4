/**
 * Runs `shutdown` once on SIGINT or SIGTERM, then the flush-before-exit hooks (the telemetry
 * preload registers its span export there), then exits. A second signal exits at once.
 */
import type { Logger } from "@chaingate/logger";

/** The registry @chaingate/telemetry's addFlushBeforeExit fills (a well-known global symbol). */
const FLUSH_HOOKS = Symbol.for("chaingate.flushBeforeExit");
const FLUSH_TIMEOUT_MS = 5_000;

async function flushBeforeExit(): Promise<void> {
  const hooks = (globalThis as { [FLUSH_HOOKS]?: Array<() => Promise<void>> })[FLUSH_HOOKS] ?? [];
  await Promise.all(
    hooks.map((hook) =>
      Promise.race([hook().catch(() => {}), new Promise<void>((resolve) => setTimeout(resolve, FLUSH_TIMEOUT_MS).unref())]),
    ),
  );
}

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
      () => flushBeforeExit().then(() => process.exit(0)),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        void flushBeforeExit().then(() => process.exit(1));
      },
    );
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
}
