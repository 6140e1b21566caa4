/** The ledger's mutable chain: what every ledger operation reads and changes, and the lookups they share. */
import type { EnergyCosts } from "../energy-costs.ts";
import type { ForwarderContract, Trc20Token, TronDevnodeGenesis } from "../genesis.ts";
import { LedgerState } from "../ledger-state.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";
import type { StoredBlock } from "./stored-block.ts";

/** How many of the newest blocks keep a state snapshot (beyond the solid lag): the deepest reorg the devnode can make. */
export const MAX_REORG_DEPTH = 256;

/** A contract the devnode runs natively. */
export type DevContract = { kind: "trc20"; token: Trc20Token } | { kind: "forwarder"; forwarder: ForwarderContract };

/**
 * The chain and state behind a `Ledger`. Invariants: `blocks[n]` is block n; `blocksById` and `executedById` index
 * exactly the blocks and transactions in `blocks`; `pendingState` is the head's state with `pending` applied.
 */
export interface LedgerChain {
  readonly genesis: TronDevnodeGenesis;
  /** The energy costs in force. */
  readonly energyCosts: EnergyCosts;
  /** Blocks between the head and the solidified block. */
  readonly solidLag: number;
  readonly now: () => number;
  readonly blocks: StoredBlock[];
  readonly blocksById: Map<string, StoredBlock>;
  readonly executedById: Map<string, ExecutedTransaction>;
  readonly tokensByAddress: Map<string, Trc20Token>;
  pendingState: LedgerState;
  pending: ExecutedTransaction[];
}

/** An empty chain (no genesis block yet). */
export function createLedgerChain(genesis: TronDevnodeGenesis, now: () => number, energyCosts: EnergyCosts, solidLag: number): LedgerChain {
  return {
    genesis,
    energyCosts,
    solidLag,
    now,
    blocks: [],
    blocksById: new Map(),
    executedById: new Map(),
    tokensByAddress: new Map(),
    pendingState: new LedgerState(),
    pending: [],
  };
}

/** The head block. */
export function headBlock(chain: LedgerChain): StoredBlock {
  return chain.blocks[chain.blocks.length - 1] as StoredBlock;
}

/**
 * The latest solidified block: `solidLag` blocks behind the head (with one witness java-tron would solidify
 * every block at once; mainnet's 27 witnesses leave it about 19 blocks behind).
 */
export function solidBlock(chain: LedgerChain): StoredBlock {
  return chain.blocks[Math.max(0, headBlock(chain).raw.number - chain.solidLag)] as StoredBlock;
}

/** Blocks (the head included) whose state is kept. */
export function keptStates(chain: LedgerChain): number {
  return Math.max(chain.solidLag, MAX_REORG_DEPTH) + 1;
}

/** The contract at a 21-byte hex address: a TRC-20 token or the forwarder. */
export function findContract(chain: LedgerChain, addressHex: string): DevContract | undefined {
  const token = chain.tokensByAddress.get(addressHex);
  if (token) return { kind: "trc20", token };
  return addressHex === chain.genesis.forwarder.hex ? { kind: "forwarder", forwarder: chain.genesis.forwarder } : undefined;
}

/** Block by number, or undefined. */
export function blockByNumber(chain: LedgerChain, number: number): StoredBlock | undefined {
  return Number.isSafeInteger(number) && number >= 0 ? chain.blocks[number] : undefined;
}

/** Block by blockID hex, or undefined. */
export function blockById(chain: LedgerChain, idHex: string): StoredBlock | undefined {
  return chain.blocksById.get(idHex.toLowerCase());
}

/** A transaction that is in a block, by txID hex. */
export function executedTransaction(chain: LedgerChain, idHex: string): ExecutedTransaction | undefined {
  return chain.executedById.get(idHex.toLowerCase());
}

/** The txID of a pending transaction, if `idHex` is one. */
export function isPending(chain: LedgerChain, idHex: string): boolean {
  return chain.pending.some((entry) => entry.id === idHex.toLowerCase());
}
