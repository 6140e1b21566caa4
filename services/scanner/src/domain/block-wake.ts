/**
 * Wakes a chain's follower when a node announces a block (ZMQ, WebSocket, `-blocknotify`), so it
 * need not wait out its poll interval. An announcement carries no authority: it only ends the
 * follower's sleep early, and the follower then asks the node for its tip and checks parent hashes
 * exactly as after a timed poll. A lost or silent channel leaves the timed poll as it was.
 */
export class BlockWake {
  /** Ends the current sleep; undefined while the follower is not sleeping. */
  #wakeSleeper: (() => void) | undefined;
  /** An announcement arrived while the follower was busy: its next sleep ends at once. */
  #pending = false;

  /** A block was announced (any content; announcements are coalesced). */
  announce(): void {
    if (this.#wakeSleeper) this.#wakeSleeper();
    else this.#pending = true;
  }

  /**
   * Sleeps `ms`, less if a block is (or was, since the last sleep) announced or `signal` aborts.
   * Resolves true when an announcement ended it.
   */
  sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const done = (announced: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        this.#wakeSleeper = undefined;
        resolve(announced);
      };
      const aborted = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal.addEventListener("abort", aborted, { once: true });
      this.#wakeSleeper = () => done(true);
    });
  }
}
