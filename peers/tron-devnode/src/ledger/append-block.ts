import { computeTxTrieRoot } from "../block.ts";
import { encodeTransaction } from "../encode-transaction.ts";
import type { LedgerState } from "../ledger-state.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";
import { headBlock, keptStates } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { sealBlock } from "./seal-block.ts";
import type { StoredBlock } from "./stored-block.ts";

/** Minimum gap between two block timestamps when blocks are produced faster than real time. */
export const MIN_BLOCK_GAP_MS = 1_000;

/** Seals `transactions` (already applied to `state`) into the next block; `state` becomes the head's and is never mutated again. */
export function appendBlock(chain: LedgerChain, transactions: ExecutedTransaction[], state: LedgerState, minTimestamp = 0): StoredBlock {
  const parent = headBlock(chain);
  const timestamp = Math.max(chain.now(), parent.raw.timestamp + MIN_BLOCK_GAP_MS, minTimestamp);
  const leaves = transactions.map((entry) => encodeTransaction(entry.transaction));
  const block = sealBlock(chain, parent.raw.number + 1, timestamp, parent.id, computeTxTrieRoot(leaves), transactions, state);
  for (const entry of transactions) {
    entry.blockNumber = block.raw.number;
    entry.blockTimestamp = timestamp;
    chain.executedById.set(entry.id, entry);
  }
  chain.pendingState = state.clone();
  const expired = chain.blocks[block.raw.number - keptStates(chain)];
  if (expired) delete expired.state;
  return block;
}

/** Packs every pending transaction into a new block signed by the witness. */
export function produceBlock(chain: LedgerChain): StoredBlock {
  const transactions = chain.pending;
  chain.pending = [];
  return appendBlock(chain, transactions, chain.pendingState);
}
