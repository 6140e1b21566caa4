import type { LedgerState } from "../ledger-state.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";
import { blockById, blockByNumber, executedTransaction, headBlock, solidBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import type { StoredBlock } from "./stored-block.ts";

/** A read view of the chain: the whole chain with the pending state (/wallet), or its solidified part (/walletsolidity). */
export interface ChainView {
  head: StoredBlock;
  state: LedgerState;
  blockByNumber(number: number): StoredBlock | undefined;
  blockById(idHex: string): StoredBlock | undefined;
  /** A transaction in one of the view's blocks. */
  executedTransaction(idHex: string): ExecutedTransaction | undefined;
}

/** The chain as `/wallet` (`solidity` false) or `/walletsolidity` (true) serves it. */
export function chainView(chain: LedgerChain, solidity: boolean): ChainView {
  if (!solidity) {
    return {
      head: headBlock(chain),
      state: chain.pendingState,
      blockByNumber: (number) => blockByNumber(chain, number),
      blockById: (idHex) => blockById(chain, idHex),
      executedTransaction: (idHex) => executedTransaction(chain, idHex),
    };
  }
  const solid = solidBlock(chain);
  const solidified = (block: StoredBlock | undefined): StoredBlock | undefined =>
    block && block.raw.number <= solid.raw.number ? block : undefined;
  return {
    head: solid,
    state: solid.state as LedgerState,
    blockByNumber: (number) => solidified(blockByNumber(chain, number)),
    blockById: (idHex) => solidified(blockById(chain, idHex)),
    executedTransaction: (idHex) => {
      const entry = executedTransaction(chain, idHex);
      return entry && entry.blockNumber <= solid.raw.number ? entry : undefined;
    },
  };
}
