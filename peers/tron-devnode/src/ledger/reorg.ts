import { appendBlock } from "./append-block.ts";
import { broadcast } from "./broadcast.ts";
import { headBlock, keptStates } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import type { StoredBlock } from "./stored-block.ts";
import { TransactionRejected } from "./transaction-rejected.ts";

/** What {@link reorg} did. */
export interface ReorgResult {
  /** The blocks that left the chain, oldest first. */
  dropped: StoredBlock[];
  /** The replacement blocks (empty of transactions), oldest first. */
  produced: StoredBlock[];
  /** txIDs of dropped transactions that went back to the pending pool (`requeue`). */
  requeued: string[];
  /** txIDs of dropped or pending transactions that are gone (not requeued, or no longer valid on the new chain). */
  discarded: string[];
}

/** Options of {@link reorg}. */
export interface ReorgOptions {
  /** Replacement blocks to produce; default `depth` (the height is kept). */
  blocks?: number;
  /** Return the dropped transactions to the pending pool (those still valid there) instead of discarding them. */
  requeue?: boolean;
}

/**
 * Replaces the newest `depth` blocks (a chain reorganisation, for scanner tests): drops them, produces
 * `options.blocks` (default `depth`) empty replacement blocks whose blockIDs differ from the dropped ones, then
 * re-broadcasts onto the new head the dropped transactions (only with `requeue`) and the pending ones; those
 * no longer valid there (TAPOS to a dropped block, expired, spent balance) are discarded.
 */
export function reorg(chain: LedgerChain, depth: number, options: ReorgOptions = {}): ReorgResult {
  const replacements = options.blocks ?? depth;
  const headNumber = headBlock(chain).raw.number;
  const forkNumber = headNumber - depth;
  if (!Number.isSafeInteger(depth) || depth < 1 || forkNumber < 0)
    throw new RangeError(`depth must be an integer from 1 to ${headNumber}, got ${depth}`);
  if (!Number.isSafeInteger(replacements) || replacements < 0)
    throw new RangeError(`blocks must be a non-negative integer, got ${String(options.blocks)}`);
  const fork = chain.blocks[forkNumber] as StoredBlock;
  if (!fork.state) throw new RangeError(`depth ${depth} is beyond the ${keptStates(chain) - 1} blocks the devnode can replace`);
  const newSolid = Math.max(0, forkNumber + replacements - chain.solidLag);
  if (newSolid < forkNumber && !chain.blocks[newSolid]?.state) {
    throw new RangeError(`blocks ${replacements} would move the solidified block behind the states the devnode keeps`);
  }

  const dropped = chain.blocks.splice(forkNumber + 1);
  for (const block of dropped) {
    chain.blocksById.delete(block.idHex);
    for (const entry of block.transactions) chain.executedById.delete(entry.id);
  }
  const droppedEntries = dropped.flatMap((block) => block.transactions);
  const retry = [...(options.requeue ? droppedEntries : []), ...chain.pending];
  const discarded = options.requeue ? [] : droppedEntries.map((entry) => entry.id);
  chain.pending = [];
  chain.pendingState = fork.state.clone();
  const produced: StoredBlock[] = [];
  for (let index = 0; index < replacements; index += 1) {
    // A timestamp after the replaced block's gives the replacement a different blockID even with equal contents.
    produced.push(appendBlock(chain, [], chain.pendingState, (dropped[index]?.raw.timestamp ?? 0) + 1));
  }
  const requeued: string[] = [];
  for (const entry of retry) {
    try {
      broadcast(chain, { raw: entry.transaction.raw, signatures: entry.transaction.signatures });
      if (droppedEntries.includes(entry)) requeued.push(entry.id);
    } catch (error) {
      if (!(error instanceof TransactionRejected)) throw error;
      discarded.push(entry.id);
    }
  }
  return { dropped, produced, requeued, discarded };
}
