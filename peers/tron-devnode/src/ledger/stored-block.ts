import type { BlockHeaderRaw } from "../block.ts";
import type { LedgerState } from "../ledger-state.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";

/** A produced block. */
export interface StoredBlock {
  raw: BlockHeaderRaw;
  id: Uint8Array;
  idHex: string;
  witnessSignature: Uint8Array;
  transactions: ExecutedTransaction[];
  /** The state after this block; dropped for blocks older than the solid lag and {@link MAX_REORG_DEPTH}. */
  state?: LedgerState;
}
