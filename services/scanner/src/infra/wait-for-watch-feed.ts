/**
 * Holds the followers back until the scanner's projection has every registry change the feed
 * held when the scanner started: a scanner that starts empty (or after downtime) would otherwise
 * process blocks against a partial watch index and miss deposits to webhooks it has not loaded yet.
 * Caught up means everything up to the stream's newest message at start is stored, or nothing is
 * pending — not "nothing pending" alone, which a busy registry might never let the scanner see.
 */
import type { ConsumerProgress } from "@chaingate/bus";
import type { FollowerLogger } from "../domain/ports.ts";

const POLL_MS = 200;
const PROGRESS_LOG_MS = 5_000;

/** Resolves once the consumer caught up with the feed as it was at the first reading, or when `signal` aborts. */
export async function waitForWatchFeed(
  progress: () => Promise<ConsumerProgress>,
  signal: AbortSignal,
  logger: FollowerLogger,
): Promise<void> {
  let target: number | undefined;
  let lastLog = 0;
  while (!signal.aborted) {
    try {
      const now = await progress();
      target ??= now.streamLastSequence;
      if (now.pending === 0 || now.ackedThrough >= target) return;
      if (Date.now() - lastLog >= PROGRESS_LOG_MS) {
        lastLog = Date.now();
        logger.info(
          { pending: now.pending, stored_through: now.ackedThrough, target },
          "loading the watch projection from the feed before following",
        );
      }
    } catch (error) {
      logger.warn({ err: error }, "watch feed position unknown; retrying");
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
