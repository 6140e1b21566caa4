/**
 * A service's retrying background loop (outbox relays, backfills): a round runs again and again;
 * after a failure the next waits the back-off (logged on the first failure and every tenth, and
 * once more when a round passes again), after an idle round `idleMs`, and at once when the round
 * says more work is waiting. `wake()` ends a wait early (new work was committed).
 */
import { backoffDelayMs, createWakeableSleep, type BackoffSchedule, type WakeableSleep } from "@chaingate/backoff";
import type { Logger } from "@chaingate/logger";

/** How long `stop()` waits for a round under way (a relay still waiting for NATS) before it returns anyway. */
const STOP_WAIT_MS = 2_000;

export interface BackgroundLoopOptions {
  /** Names the loop in its log lines ("<name> incomplete; retrying"). */
  name: string;
  logger: Pick<Logger, "warn" | "info">;
  /** One round; resolves true when more work is waiting (the next round starts at once). */
  round(): Promise<boolean>;
  idleMs: number;
  retry: BackoffSchedule;
  /** Failures logged: the first, then one in this many (an outage must not flood the log). Default 10. */
  logEveryNthFailure?: number;
  /** What the loop waits on: a doorbell made before the loop, so producers made earlier can ring it. Default: its own. */
  wakeups?: WakeableSleep;
}

export interface BackgroundLoop {
  wake(): void;
  stop(): Promise<void>;
}

export function startBackgroundLoop(options: BackgroundLoopOptions): BackgroundLoop {
  const { logger } = options;
  const pause = options.wakeups ?? createWakeableSleep();
  let stopped = false;
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      let more = false;
      try {
        more = await options.round();
        if (failures > 0) logger.info({ after_failures: failures }, `${options.name} caught up`);
        failures = 0;
      } catch (error) {
        failures++;
        if (failures === 1 || failures % (options.logEveryNthFailure ?? 10) === 0)
          logger.warn(
            { err: error, failures, retry_in_ms: backoffDelayMs(failures, options.retry) },
            `${options.name} incomplete; retrying`,
          );
      }
      if (stopped) break;
      if (more) continue;
      await pause.sleep(failures ? backoffDelayMs(failures, options.retry) : options.idleMs);
    }
  })();
  return {
    wake: pause.wake,
    async stop() {
      stopped = true;
      pause.wake();
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    },
  };
}
