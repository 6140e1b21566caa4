/** A pause that ends early when woken: background loops idle on it and new work (or a stop) wakes them. */
export interface WakeableSleep {
  sleep(ms: number): Promise<void>;
  /** Ends the current pause (and, if none is under way, the next one at once). */
  wake(): void;
}

export function createWakeableSleep(): WakeableSleep {
  let wakeUp: (() => void) | undefined;
  let woken = false;
  return {
    sleep(ms) {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = undefined;
          woken = false;
          resolve();
        }
        wakeUp = done;
      });
    },
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
  };
}
