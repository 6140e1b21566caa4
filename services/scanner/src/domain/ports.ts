/** What the follower needs from the outside world; adapters in `infra/` implement these. */
import type { Coin, EventPayload, blockProcessed } from "@chaingate/contracts";
import type { TransferEvent } from "./transfer-event.ts";
import type { BlockHeader, Match } from "./transfer.ts";
import type { WatchIndex } from "./watch-index.ts";

/** One chain's node, as the follower reads it. */
export interface BlockSource<Block> {
  /** Height of the node's best block. */
  tipHeight(): Promise<number>;
  /** The best chain's block at `height` with everything matching needs; null when there is none (yet). */
  blockAt(height: number): Promise<Block | null>;
  /** The best chain's block hash at `height`; null when there is none. */
  hashAt(height: number): Promise<string | null>;
}

/** A chain: its node and how its blocks are read and matched. */
export interface ChainFollowerSpec<Block> {
  coin: Coin;
  source: BlockSource<Block>;
  header(block: Block): BlockHeader;
  match(block: Block, index: WatchIndex): Match[];
}

/** A match as stored until its block is deep enough and while it may still be reverted. */
export interface StoredMatch {
  /** The event id of its "transfer" notification. */
  id: string;
  match: Match;
  height: number;
  blockHash: string;
  timeMs: number;
  /** The confirmations it was published with; null while it waits for depth. */
  publishedConfirmations: number | null;
}

export interface Cursor {
  height: number;
  hash: string;
}

/** The follower's durable state: cursor, recent block hashes, matches of the kept window. */
export interface FollowerStore {
  cursor(coin: Coin): Promise<Cursor | undefined>;
  /** The stored hash of the processed block at `height`; undefined outside the kept window. */
  hashAt(coin: Coin, height: number): Promise<string | undefined>;
  /** Unpublished matches whose block is at least their confirmations deep when `tipHeight` is the newest block. */
  pendingDue(coin: Coin, tipHeight: number): Promise<StoredMatch[]>;
  /**
   * In one transaction: the blocks (consecutive, in order) are stored and the last becomes the
   * cursor, their matches are stored, `publishedNow` (ids of earlier matches published with the
   * given confirmations) are marked, and blocks and published matches below `keepFrom` may be pruned.
   */
  commitBlocks(coin: Coin, blocks: readonly BlockHeader[], matches: readonly StoredMatch[], publishedNow: ReadonlyArray<{ id: string; confirmations: number }>, keepFrom: number): Promise<void>;
  /** Published matches of blocks above `height` (they need a "reverted" notification). */
  publishedAbove(coin: Coin, height: number): Promise<StoredMatch[]>;
  /** Forgets blocks and matches above `height`; the block at `height` becomes the cursor. */
  rewindTo(coin: Coin, height: number): Promise<void>;
}

export type BlockProcessedEvent = EventPayload<typeof blockProcessed>;

/** Where events go (JetStream, with deterministic message ids). */
export interface EventSink {
  publishTransfer(event: TransferEvent): Promise<void>;
  publishBlock(event: BlockProcessedEvent): Promise<void>;
}

/** Brings the watch index up to date with the registry's changes. */
export interface WatchFeed {
  refresh(index: WatchIndex): Promise<void>;
}

/** The narrow logger the follower reports to (pino satisfies it). */
export interface FollowerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
