import { sleep, type ChainGuardContext } from "./chain-guard-context.ts";
import { keptBlocksGone } from "./reset-stale-chain.ts";

/** Waits `ms`, or less when a reset is requested meanwhile or `signal` aborts. */
export async function waitOrReset(context: ChainGuardContext, ms: number, signal: AbortSignal): Promise<void> {
  const { store, coin, resetPollMs } = context;
  const until = Date.now() + ms;
  while (!signal.aborted && Date.now() < until) {
    await sleep(Math.min(resetPollMs, until - Date.now()), signal);
    if (signal.aborted) return;
    try {
      if ((await store.read(coin)).pendingReset) return;
    } catch {
      // The database is down: the follower's own retries report it.
    }
  }
}

/** After a reorg below the window: until a reset is requested or the node has the kept blocks again (back on our branch). */
export async function waitForResetOrKeptBlocks(context: ChainGuardContext, signal: AbortSignal): Promise<void> {
  const { store, coin, resetPollMs } = context;
  while (!signal.aborted) {
    await sleep(resetPollMs, signal);
    try {
      if ((await store.read(coin)).pendingReset || !(await keptBlocksGone(context))) return;
    } catch {
      // The database or the node is down: keep waiting.
    }
  }
}

/** Polls for a reset while following; aborts `follow` when one arrives. */
export async function watchResets(context: ChainGuardContext, signal: AbortSignal, abort: () => void): Promise<void> {
  const { store, coin, resetPollMs } = context;
  while (!signal.aborted) {
    await sleep(resetPollMs, signal);
    if (signal.aborted) return;
    try {
      if ((await store.read(coin)).pendingReset) return abort();
    } catch {
      // The follower meets the same database and reports it.
    }
  }
}
