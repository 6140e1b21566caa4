/**
 * Coalesces small writes: items added while a write runs go out together in the next one (at most
 * `maxBatch` per write), so a busy worker pays one round trip per batch instead of one per item and
 * a quiet one waits for no timer. Each `add` resolves once its own item is written, or rejects with
 * the error of the write that carried it.
 */
export type BatchWriter<Item> = (item: Item) => Promise<void>;

export function createBatchWriter<Item>(write: (items: Item[]) => Promise<void>, maxBatch: number): BatchWriter<Item> {
  const waiting: Array<{ item: Item; resolve: () => void; reject: (error: unknown) => void }> = [];
  let writing: Promise<void> | undefined;

  async function writeWaiting(): Promise<void> {
    // Answers that arrived in the same turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (waiting.length) {
        const batch = waiting.splice(0, maxBatch);
        try {
          await write(batch.map((entry) => entry.item));
          for (const entry of batch) entry.resolve();
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      // Cleared in the same turn the queue is seen empty: the next add starts a new run.
      writing = undefined;
    }
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      writing ??= writeWaiting();
    });
}
