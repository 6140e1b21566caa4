/** What the mempool watcher is given (`watchMempool`), and the defaults of its tunables. */
import type { WakeableSleep } from "@chaingate/backoff";
import type { FollowerLogger, FollowerStore } from "../ports.ts";
import type { SerialLock } from "../serial-lock.ts";
import type { WatchIndex } from "../watch-index.ts";
import type { MempoolEvent } from "./mempool-event.ts";
import type { MempoolSource, MempoolStore } from "./mempool-ports.ts";

export const DEFAULT_MEMPOOL_POLL_MS = 1_000;
/** How long an announced transaction may be missing from the mempool, neither mined nor conflicted, before it is "dropped". */
export const DEFAULT_MEMPOOL_DROP_AFTER_MS = 3_600_000;

export interface WatchMempoolOptions<Tx> {
  source: MempoolSource<Tx>;
  index: WatchIndex;
  store: MempoolStore;
  /** The follower's revert counts: a pending transfer comes under its transfer's generation. */
  generations: FollowerStore["generations"];
  publish(event: MempoolEvent): Promise<void>;
  /** Shared with the chain's follower (see serial-lock.ts). */
  lock: SerialLock;
  logger: FollowerLogger;
  signal: AbortSignal;
  pollIntervalMs?: number;
  dropAfterMs?: number;
  /** Transactions fetched at once. */
  fetchConcurrency?: number;
  /**
   * Drains the txids the node announced since the last call (ZMQ `sequence`, label A): read between
   * whole diffs, so a payment is pending within milliseconds of reaching the node.
   */
  hints?: () => string[];
  /** Ends the poll sleep early (a block or a transaction announced). */
  wake?: WakeableSleep;
  now?: () => number;
  /** After each poll: the mempool's size, the transactions new to it, the transfers still open. */
  onPoll?: (poll: { mempoolSize: number; fresh: number; open: number }) => void;
}
