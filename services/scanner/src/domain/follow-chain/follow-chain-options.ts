/** What a chain's follower is given (`followChain`), and the defaults of its tunables. */
import type { WakeableSleep } from "@chaingate/backoff";
import { builtInChainSettings } from "../chain-settings.ts";
import type { ChainFollowerSpec, EventSink, FollowerLogger, FollowerStore, WatchFeed } from "../ports.ts";
import type { SerialLock } from "../serial-lock.ts";
import type { BlockHeader } from "../transfer.ts";
import type { WatchIndex } from "../watch-index.ts";

/** Blocks fetched at once while catching up (processed in order). */
export const DEFAULT_FETCH_CONCURRENCY = 8;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** How much older than a block's moment the registry watermark may be before the follower waits for the feed. */
export const DEFAULT_WATCH_GRACE_MS = 5_000;
/** A node behind the processed cursor this long is failed over (when the chain has another URL). */
export const DEFAULT_NODE_BEHIND_FAILOVER_MS = 30_000;

export interface FollowChainOptions<Block> {
  chain: ChainFollowerSpec<Block>;
  index: WatchIndex;
  watchFeed: WatchFeed;
  store: FollowerStore;
  sink: EventSink;
  logger: FollowerLogger;
  /** Ends the follower (lease lost, shutdown). */
  signal: AbortSignal;
  fetchConcurrency?: number;
  pollIntervalMs?: number;
  /**
   * Ends the poll sleep early when the node announces a block (ZMQ, WebSocket, `-blocknotify`).
   * An announcement carries no authority: the pass it starts is an ordinary one (tip, parent
   * hashes, lag), and a lost or silent channel leaves the timed poll as it was. Without it the
   * follower only polls.
   */
  wake?: WakeableSleep;
  /** Held while a batch's transfers are published and stored: the chain's mempool watcher takes turns with it (serial-lock.ts). */
  commitLock?: SerialLock;
  /** Blocks kept for reorgs; default a built-in chain's documented window (a configured chain must give its own). */
  reorgWindow?: number;
  /** Where a follower without a cursor starts; default the node's tip (no history is replayed). */
  startHeight?: number;
  /** How long the node may stay behind the processed cursor before it is failed over. */
  nodeBehindFailoverMs?: number;
  /** Called when the node falls behind the cursor (how many blocks), and with null once it has caught up (metrics). */
  onNodeBehind?: (blocks: number | null) => void;
  /** How much older than a block's moment the registry watermark may be (see the module comment). */
  watchGraceMs?: number;
  /** Called while blocks wait for the watch feed, with how far the watermark is behind (ms; Infinity: none yet), and with null once it is current (metrics, readiness). */
  onWatchFeedBehind?: (behindMs: number | null) => void;
  /** Called after each block is committed, with the node's tip height seen then (metrics, tests). */
  onBlock?: (block: BlockHeader, matched: number, tipHeight: number) => void;
  /** Called after a reorg was rewound: how many processed blocks left the best chain, how many notified transfers were reverted. */
  onReorg?: (reorg: { forkHeight: number; depth: number; reverted: number }) => void;
}

/**
 * The follower's reorg window: the one given, or a built-in chain's. A configured EVM chain without
 * one is refused when its follower starts, not at its first commit (where the failure would be
 * retried for ever).
 */
export function reorgWindowOf(options: Pick<FollowChainOptions<unknown>, "reorgWindow" | "chain">): number {
  const window = options.reorgWindow ?? builtInChainSettings(options.chain.coin)?.reorgWindow;
  if (window === undefined)
    throw new Error(`${options.chain.coin}: followChain needs reorgWindow (the chain registry entry's) for a chain that is not built in`);
  return window;
}
