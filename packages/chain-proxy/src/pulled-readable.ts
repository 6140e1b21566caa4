/**
 * A byte stream over an async iterator that is pulled only as fast as the stream is read (as
 * `Readable.from` does), and that tells its source when it is destroyed before asking the iterator
 * to return: an iterator waiting on something slow (a paused node socket) is unblocked by
 * `onDestroy`, where `Readable.from` would wait for it to settle by itself.
 */
import { Readable } from "node:stream";

export interface PulledReadableOptions {
  /** Bytes buffered ahead of the reader before the iterator is left waiting. */
  highWaterMark: number;
  /** Called once, first thing, when the stream is destroyed (its reader left or failed). */
  onDestroy: () => void;
}

export function pulledReadable(pieces: AsyncIterator<Buffer>, { highWaterMark, onDestroy }: PulledReadableOptions): Readable {
  let pulling = false;
  const stream: Readable = new Readable({
    highWaterMark,
    read() {
      if (pulling) return;
      pulling = true;
      void (async () => {
        try {
          for (;;) {
            const next = await pieces.next();
            if (stream.destroyed) return;
            if (next.done) {
              stream.push(null);
              return;
            }
            if (!stream.push(next.value)) return;
          }
        } catch (error) {
          stream.destroy(error as Error);
        } finally {
          pulling = false;
        }
      })();
    },
    destroy(error, callback) {
      onDestroy();
      // The iterator's own clean-up (its finally blocks) runs once it reaches a yield or returns.
      void pieces.return?.().catch(() => undefined);
      callback(error);
    },
  });
  return stream;
}
