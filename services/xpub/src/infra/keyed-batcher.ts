/**
 * Coalesces concurrent calls that share a key into batches run one at a time per key. While a
 * key's batch runs, new calls for it queue; when it finishes, the queued calls (up to
 * `maxBatchSize`) run as the next batch. Calls for different keys never wait for each other.
 */
export type BatchRunner<Result> = (size: number) => Promise<Result[]>;

export interface KeyedBatcher<Result> {
  /** Resolves with this call's element of the batch result, or rejects with the batch's error. */
  submit(key: string, run: BatchRunner<Result>): Promise<Result>;
}

interface Pending<Result> {
  resolve(result: Result): void;
  reject(error: unknown): void;
}

interface Lane<Result> {
  queue: Array<Pending<Result>>;
  run: BatchRunner<Result>;
  busy: boolean;
}

/** `run(size)` must return exactly `size` results, in call order. */
export function createKeyedBatcher<Result>(maxBatchSize: number): KeyedBatcher<Result> {
  const lanes = new Map<string, Lane<Result>>();

  const drain = async (key: string, lane: Lane<Result>) => {
    lane.busy = true;
    while (lane.queue.length > 0) {
      const batch = lane.queue.splice(0, maxBatchSize);
      try {
        const results = await lane.run(batch.length);
        if (results.length !== batch.length) throw new Error(`batch of ${batch.length} produced ${results.length} results`);
        batch.forEach((pending, i) => pending.resolve(results[i]!));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    lane.busy = false;
    lanes.delete(key);
  };

  return {
    submit(key, run) {
      return new Promise<Result>((resolve, reject) => {
        let lane = lanes.get(key);
        if (!lane) {
          lane = { queue: [], run, busy: false };
          lanes.set(key, lane);
        }
        lane.queue.push({ resolve, reject });
        if (!lane.busy) void drain(key, lane);
      });
    },
  };
}
