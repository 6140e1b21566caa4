/**
 * The devnode's chain: blocks, the pending pool and the state machine that validates, charges and executes
 * transactions like java-tron's Manager/actuators/VM (for the supported contract types). The `Ledger` class is
 * the entry point; each operation lives in `ledger/` as a function over the shared {@link LedgerChain}.
 */
import { resolveEnergyCosts } from "./energy-costs.ts";
import type { EnergyCosts } from "./energy-costs.ts";
import type { TronDevnodeGenesis } from "./genesis.ts";
import type { LedgerState } from "./ledger-state.ts";
import type { Transaction, TransactionContract, TransactionRaw, TriggerSmartContractValue } from "./transaction.ts";
import { produceBlock } from "./ledger/append-block.ts";
import { broadcast } from "./ledger/broadcast.ts";
import { callConstant } from "./ledger/call-constant.ts";
import type { ConstantCallResult } from "./ledger/call-constant.ts";
import { chainView } from "./ledger/chain-view.ts";
import type { ChainView } from "./ledger/chain-view.ts";
import type { ExecutedTransaction } from "./ledger/executed-transaction.ts";
import {
  blockById,
  blockByNumber,
  createLedgerChain,
  executedTransaction,
  findContract,
  headBlock,
  isPending,
  solidBlock,
} from "./ledger/ledger-chain.ts";
import type { DevContract, LedgerChain } from "./ledger/ledger-chain.ts";
import { loadGenesis } from "./ledger/load-genesis.ts";
import { reorg } from "./ledger/reorg.ts";
import type { ReorgOptions, ReorgResult } from "./ledger/reorg.ts";
import type { StoredBlock } from "./ledger/stored-block.ts";
import { builderRaw, validateForBuilder } from "./ledger/transaction-builder.ts";

/** Options of a {@link Ledger}. */
export interface LedgerOptions {
  /** TRC-20 energy costs; defaults in energy-costs.ts. */
  energy?: Partial<EnergyCosts>;
  /** How many blocks the solidified block trails the head (mainnet: about 19); default 0. */
  solidLag?: number;
}

/** The devnode's chain and state. */
export class Ledger {
  /** The energy costs in force. */
  readonly energyCosts: EnergyCosts;
  /** Blocks between the head and the solidified block. */
  readonly solidLag: number;
  private readonly chain: LedgerChain;

  readonly genesis: TronDevnodeGenesis;

  constructor(genesis: TronDevnodeGenesis, now: () => number = Date.now, options: LedgerOptions = {}) {
    this.genesis = genesis;
    this.energyCosts = resolveEnergyCosts(options.energy);
    this.solidLag = options.solidLag ?? 0;
    if (!Number.isSafeInteger(this.solidLag) || this.solidLag < 0)
      throw new Error(`solidLag must be a non-negative integer, got ${String(options.solidLag)}`);
    this.chain = createLedgerChain(genesis, now, this.energyCosts, this.solidLag);
    loadGenesis(this.chain);
  }

  /** The head block. */
  get head(): StoredBlock {
    return headBlock(this.chain);
  }

  /**
   * The latest solidified block: `solidLag` blocks behind the head (with one witness java-tron would solidify
   * every block at once; mainnet's 27 witnesses leave it about 19 blocks behind).
   */
  get solid(): StoredBlock {
    return solidBlock(this.chain);
  }

  /** State after the solidified block (what /walletsolidity serves). */
  get confirmedState(): LedgerState {
    return this.solid.state as LedgerState;
  }

  /** The chain as `/wallet` (`solidity` false) or `/walletsolidity` (true) serves it. */
  view(solidity: boolean): ChainView {
    return chainView(this.chain, solidity);
  }

  /** State including pending transactions (what /wallet serves). */
  get pendingView(): LedgerState {
    return this.chain.pendingState;
  }

  /** Transactions waiting for the next block. */
  get pendingTransactions(): readonly ExecutedTransaction[] {
    return this.chain.pending;
  }

  /** The contract at a 21-byte hex address: a TRC-20 token or the forwarder. */
  contract(addressHex: string): DevContract | undefined {
    return findContract(this.chain, addressHex);
  }

  /** Block by number, or undefined. */
  blockByNumber(number: number): StoredBlock | undefined {
    return blockByNumber(this.chain, number);
  }

  /** Block by blockID hex, or undefined. */
  blockById(idHex: string): StoredBlock | undefined {
    return blockById(this.chain, idHex);
  }

  /** A transaction that is in a block, by txID hex. */
  executedTransaction(idHex: string): ExecutedTransaction | undefined {
    return executedTransaction(this.chain, idHex);
  }

  /** The txID of a pending transaction, if `idHex` is one. */
  isPending(idHex: string): boolean {
    return isPending(this.chain, idHex);
  }

  /** Packs every pending transaction into a new block signed by the witness. */
  produceBlock(): StoredBlock {
    return produceBlock(this.chain);
  }

  /**
   * Replaces the newest `depth` blocks (a chain reorganisation, for scanner tests): drops them, produces
   * `options.blocks` (default `depth`) empty replacement blocks whose blockIDs differ from the dropped ones, then
   * re-broadcasts onto the new head the dropped transactions (only with `requeue`) and the pending ones; those
   * no longer valid there (TAPOS to a dropped block, expired, spent balance) are discarded.
   */
  reorg(depth: number, options: ReorgOptions = {}): ReorgResult {
    return reorg(this.chain, depth, options);
  }

  /**
   * Validates, charges and executes a signed transaction on the pending state, like java-tron's
   * `Wallet.broadcastTransaction`; throws {@link TransactionRejected} with java-tron's code and message.
   */
  broadcast(transaction: Transaction): ExecutedTransaction {
    return broadcast(this.chain, transaction);
  }

  /** Runs the actuator's validation only (what the node's transaction builders do); throws CONTRACT_VALIDATE_ERROR. */
  validateForBuilder(contract: TransactionContract, feeLimit: number): void {
    validateForBuilder(this.chain, contract, feeLimit);
  }

  /** Raw data as the node's builders produce it: referencing the solid block, expiring 60 s after the head block. */
  builderRaw(contract: TransactionContract, options: { feeLimit?: number; memo?: Uint8Array } = {}): TransactionRaw {
    return builderRaw(this.chain, contract, options);
  }

  /**
   * Executes a call without committing anything (triggerconstantcontract, estimateenergy, eth_call); throws
   * CONTRACT_VALIDATE_ERROR when the caller cannot send the value it names.
   */
  callConstant(call: TriggerSmartContractValue, confirmed = false): ConstantCallResult {
    return callConstant(this.chain, call, confirmed);
  }
}
