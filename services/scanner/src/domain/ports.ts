/** What the follower needs from the outside world; adapters in `infra/` implement these. */
import type { Coin, EventPayload, blockProcessed } from "@chaingate/contracts";
import type { MempoolEvent } from "./mempool/mempool-event.ts";
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
  /**
   * Reads what matching the block needs beyond the block (the decimals of unlisted tokens it pays
   * watched addresses); throws while the node cannot answer, so the block waits and is tried again.
   */
  prepare?(block: Block, index: WatchIndex): Promise<void>;
  /**
   * Fails the node over: the URL that answered last is skipped for its cool-down (a node that
   * stays behind). Returns that URL; absent for a chain with a single node.
   */
  demoteNode?(reason: string): string | undefined;
}

/** A processed block as stored: its header and when it was matched (scanner clock, epoch ms). */
export interface ProcessedBlock extends BlockHeader {
  matchedAtMs: number;
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
  /** How many times this transfer was reverted before, in any block (see transferKey). */
  generation: number;
}

export interface Cursor {
  height: number;
  hash: string;
}

/**
 * The follower's durable state: cursor, recent block hashes, matches of the kept window, and how
 * often each transfer of the window was reverted.
 */
export interface FollowerStore {
  /**
   * The lease for `coin` was (re)acquired: forget anything remembered of its rows, since another
   * replica may have written them meanwhile.
   */
  begin(coin: Coin): Promise<void>;
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
  commitBlocks(
    coin: Coin,
    blocks: readonly ProcessedBlock[],
    matches: readonly StoredMatch[],
    publishedNow: ReadonlyArray<{ id: string; confirmations: number }>,
    keepFrom: number,
  ): Promise<void>;
  /**
   * Before their events are published: stores `published` (matches being published now, with
   * their confirmations) and marks `publishedNow`, so that a crash after publishing and before
   * `commitBlocks` leaves a record a later rewind can revert (the blocks are not stored yet).
   */
  recordPublishing(
    coin: Coin,
    published: readonly StoredMatch[],
    publishedNow: ReadonlyArray<{ id: string; confirmations: number }>,
  ): Promise<void>;
  /** Published matches of blocks above `height` (they need a "reverted" notification). */
  publishedAbove(coin: Coin, height: number): Promise<StoredMatch[]>;
  /** Kept blocks matched at or after `sinceMs` (scanner clock), ascending. */
  blocksMatchedSince(coin: Coin, sinceMs: number): Promise<Array<Cursor & { matchedAtMs: number }>>;
  /** Revert counts of these transfer keys (absent: never reverted). */
  generations(coin: Coin, keys: readonly string[]): Promise<Map<string, number>>;
  /**
   * In one transaction: forgets blocks and matches above `height` (the block at `height` becomes
   * the cursor) and counts one more revert for each of `reverted`.
   */
  rewindTo(coin: Coin, height: number, reverted: readonly StoredMatch[]): Promise<void>;
  /** Forgets these matches (published for a block that never became part of the kept chain) and counts one more revert for each. */
  revertMatches(coin: Coin, reverted: readonly StoredMatch[]): Promise<void>;
}

export type BlockProcessedEvent = EventPayload<typeof blockProcessed>;

/** Where events go (JetStream, with deterministic message ids). */
export interface EventSink {
  /** A block's transfer or revert, or a mempool event (one subject, so delivery numbers them in order). */
  publishTransfer(event: TransferEvent | MempoolEvent): Promise<void>;
  publishBlock(event: BlockProcessedEvent): Promise<void>;
}

/** Addresses that became watched after blocks were matched without them (a late registry change). */
export interface RescanJob {
  id: number;
  coin: Coin;
  webhookId: number;
  /** The addresses that became watched; null: every address the webhook watches now. */
  addresses: string[] | null;
  /** Since when they are watched (the registry's clock, epoch ms). */
  sinceMs: number;
}

/** What the projection knew at a refresh besides the index itself. */
export interface WatchFeedState {
  /** The newest registry watermark held: every change the registry committed before it is in the index. Undefined before the first. */
  watermarkMs: number | undefined;
  /** Rescans not done yet. */
  rescans: RescanJob[];
}

/** A feed with no registry behind it (tests, benchmarks): always current, never a late address. */
export const FEED_ALWAYS_CURRENT: WatchFeedState = { watermarkMs: Number.POSITIVE_INFINITY, rescans: [] };

/** Brings the watch index up to date with the registry's changes. */
export interface WatchFeed {
  refresh(index: WatchIndex): Promise<WatchFeedState>;
  /** The rescans were done (their transfers published or stored). */
  finishRescans(ids: readonly number[]): Promise<void>;
}

/** The narrow logger the follower reports to (pino satisfies it). */
export interface FollowerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
