/**
 * A pause that ends early when woken: background loops idle on it and new work (or a stop) wakes
 * them; a chain follower sleeps its poll interval on it and a block announcement wakes it. Wakes
 * coalesce: one that comes while nobody sleeps ends the next pause at once, and only that one.
 */
export interface WakeableSleep {
  /** Pauses `ms`, less when woken or when `signal` aborts; resolves true when a wake ended it. */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
  /** Ends the current pause (and, if none is under way, the next one at once). */
  wake(): void;
}

export function createWakeableSleep(): WakeableSleep {
  let wakeUp: (() => void) | undefined;
  let woken = false;
  return {
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.resolve(false);
      if (woken) {
        woken = false;
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), ms);
        const aborted = () => done(false);
        function done(byWake: boolean) {
          clearTimeout(timer);
          signal?.removeEventListener("abort", aborted);
          wakeUp = undefined;
          woken = false;
          resolve(byWake);
        }
        signal?.addEventListener("abort", aborted, { once: true });
        wakeUp = () => done(true);
      });
    },
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
  };
}
