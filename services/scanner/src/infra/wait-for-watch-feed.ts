/**
 * Holds the followers back until the scanner's projection has every registry change the feed
 * holds: a scanner that starts empty (or after downtime) would otherwise process blocks against a
 * partial watch index and miss deposits to webhooks it has not loaded yet.
 */
import type { FollowerLogger } from "../domain/ports.ts";

const POLL_MS = 200;
const PROGRESS_LOG_MS = 5_000;

/** Resolves once `pending()` (feed messages not yet stored) reads 0, or when `signal` aborts. */
export async function waitForWatchFeed(pending: () => Promise<number>, signal: AbortSignal, logger: FollowerLogger): Promise<void> {
  let lastLog = 0;
  while (!signal.aborted) {
    try {
      const left = await pending();
      if (left === 0) return;
      if (Date.now() - lastLog >= PROGRESS_LOG_MS) {
        lastLog = Date.now();
        logger.info({ pending: left }, "loading the watch projection from the feed before following");
      }
    } catch (error) {
      logger.warn({ err: error }, "watch feed position unknown; retrying");
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
