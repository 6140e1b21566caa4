/**
 * The delivery's retrying background loops (the watch-feed relay, the key-history backfill): a
 * round runs again and again; after a failure the next waits a doubling back-off (logged on the
 * first failure and every tenth), after an idle round `idleMs`, and at once when the round says
 * more work is waiting. `wake()` ends a wait early (new work was committed).
 */
import type { Logger } from "@chaingate/logger";
import { retryDelayMs } from "./retry-delay.ts";
import { createWakeableSleep } from "./wakeable-sleep.ts";

/** How long `stop()` waits for a round under way before it returns anyway. */
const STOP_WAIT_MS = 2_000;

export interface BackgroundLoopOptions {
  /** Names the loop in its warning ("<name> incomplete; retrying"). */
  name: string;
  logger: Logger;
  /** One round; resolves true when more work is waiting (the next round starts at once). */
  round(): Promise<boolean>;
  idleMs: number;
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
}

export interface BackgroundLoop {
  wake(): void;
  stop(): Promise<void>;
}

export function startBackgroundLoop(options: BackgroundLoopOptions): BackgroundLoop {
  const { logger } = options;
  const pause = createWakeableSleep();
  let stopped = false;
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      let more = false;
      try {
        more = await options.round();
        failures = 0;
      } catch (error) {
        failures++;
        if (failures === 1 || failures % 10 === 0) logger.warn({ err: error, failures }, `${options.name} incomplete; retrying`);
      }
      if (stopped) break;
      if (more) continue;
      await pause.sleep(failures ? retryDelayMs(failures, options.firstRetryDelayMs, options.maxRetryDelayMs) : options.idleMs);
    }
  })();
  return {
    wake: pause.wake,
    async stop() {
      stopped = true;
      pause.wake();
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS))]);
    },
  };
}
