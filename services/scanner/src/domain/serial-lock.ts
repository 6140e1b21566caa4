/**
 * One chain's turns between its follower and its mempool watcher (issue #29): a transfer's
 * "pending" is decided and published while no block's transfers are, so a transaction the follower
 * has already published from a block is never announced as pending after it.
 */
export type SerialLock = <T>(work: () => Promise<T>) => Promise<T>;

export function createSerialLock(): SerialLock {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    // The next turn waits for this one to settle, whether it failed or not.
    tail = run.catch(() => undefined);
    return run;
  };
}
