/**
 * The devnode's chain: blocks, the pending pool and the state machine that validates, charges and executes
 * transactions like java-tron's Manager/actuators/VM (for the supported contract types).
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { sha256 } from "@noble/hashes/sha2";
import { addressToBase58, isValidAddress } from "./address.ts";
import { computeBlockId, computeTxTrieRoot, encodeBlockHeaderRaw } from "./block.ts";
import type { BlockHeaderRaw } from "./block.ts";
import {
  BUILDER_EXPIRATION_MS,
  CREATE_ACCOUNT_FEE_SUN,
  CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN,
  ENERGY_FEE_SUN,
  FREE_NET_LIMIT_BYTES,
  MAX_FEE_LIMIT_SUN,
  MAX_RESULT_SIZE_IN_TX,
  MAXIMUM_TIME_UNTIL_EXPIRATION_MS,
  NET_WINDOW_MS,
  TAPOS_RECENT_BLOCKS,
  TRANSACTION_FEE_SUN_PER_BYTE,
  TRANSACTION_MAX_BYTE_SIZE,
} from "./chain-parameters.ts";
import { encodeTransaction, transactionId } from "./encode-transaction.ts";
import { energyPenalty, resolveEnergyCosts } from "./energy-costs.ts";
import type { EnergyCosts } from "./energy-costs.ts";
import { executeForwarder } from "./forwarder-contract.ts";
import type { ForwarderExecution, InternalTransaction } from "./forwarder-contract.ts";
import type { ForwarderContract, Trc20Token, TronDevnodeGenesis } from "./genesis.ts";
import { bytesEqual, concatBytes, parseHex, toHex } from "./hex.ts";
import { LedgerState } from "./ledger-state.ts";
import type { AccountRecord } from "./ledger-state.ts";
import { recoverSigner } from "./sign-transaction.ts";
import { executeTrc20 } from "./trc20-token.ts";
import type { EvmLog, Trc20Execution } from "./trc20-token.ts";
import type { ContractResult, Transaction, TransactionContract, TransactionRaw, TriggerSmartContractValue } from "./transaction.ts";

/** Block header version the devnode writes (java-tron 4.8). */
export const BLOCK_VERSION = 34;
/** Slot length used for the next-slot expiration check, as on mainnet. */
export const BLOCK_SLOT_MS = 3_000;
/** Minimum gap between two block timestamps when blocks are produced faster than real time. */
export const MIN_BLOCK_GAP_MS = 1_000;
/** How many of the newest blocks keep a state snapshot (beyond the solid lag): the deepest reorg the devnode can make. */
export const MAX_REORG_DEPTH = 256;
const SIGNATURE_LENGTH = 65;
const OWNER_PERMISSION_ID = 0;
const ACTIVE_PERMISSION_ID = 2;
const SSTORE_ENERGY = 20_000;
/** TRC-10 ids are above this (VMConstant.MIN_TOKEN_ID); a call's token_id is 0 or above it. */
const MIN_TOKEN_ID = 1_000_000;
/** The energy limit of a constant call (java-tron's `vm.maxEnergyLimitForConstant` default). */
const CONSTANT_CALL_ENERGY_LIMIT = 100_000_000;
/** TAPOS: ref_block_bytes are bytes 6..8 of the 8-byte block number, ref_block_hash bytes 8..16 of the blockID. */
const REF_BLOCK_BYTES_RANGE = [6, 8] as const;
const REF_BLOCK_HASH_RANGE = [8, 16] as const;

/** java-tron's `Return.response_code` values that broadcast can answer. */
export type BroadcastCode =
  | "SIGERROR"
  | "CONTRACT_VALIDATE_ERROR"
  | "CONTRACT_EXE_ERROR"
  | "BANDWITH_ERROR"
  | "DUP_TRANSACTION_ERROR"
  | "TAPOS_ERROR"
  | "TOO_BIG_TRANSACTION_ERROR"
  | "TRANSACTION_EXPIRATION_ERROR"
  | "OTHER_ERROR";

/** A rejected transaction: the code and the (plain-text) message java-tron would answer. */
export class TransactionRejected extends Error {
  override readonly name = "TransactionRejected";
  constructor(
    readonly code: BroadcastCode,
    message: string,
  ) {
    super(message);
  }
}

function contractValidateError(message: string): TransactionRejected {
  return new TransactionRejected("CONTRACT_VALIDATE_ERROR", message);
}

/** What gettransactioninfobyid reports about an executed transaction. */
export interface ExecutedTransaction {
  transaction: Transaction;
  id: string;
  fee: number;
  energyFee: number;
  energyUsageTotal: number;
  /** The dynamic-energy part of `energyUsageTotal` (`receipt.energy_penalty_total`). */
  energyPenaltyTotal: number;
  netUsage: number;
  netFee: number;
  /** `receipt.result`, set for contract calls. */
  receiptResult?: ContractResult;
  contractResult: Uint8Array;
  contractAddress?: Uint8Array;
  logs: EvmLog[];
  /** `internal_transactions`: the calls a contract made (TRX and TRC-10 it sent). */
  internalTransactions: InternalTransaction[];
  /** Plain-text failure message (`resMessage`), set for failed contract calls. */
  resMessage?: string;
  blockNumber: number;
  blockTimestamp: number;
}

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

/** A read view of the chain: the whole chain with the pending state (/wallet), or its solidified part (/walletsolidity). */
export interface ChainView {
  head: StoredBlock;
  state: LedgerState;
  blockByNumber(number: number): StoredBlock | undefined;
  blockById(idHex: string): StoredBlock | undefined;
  /** A transaction in one of the view's blocks. */
  executedTransaction(idHex: string): ExecutedTransaction | undefined;
}

/** What {@link Ledger.reorg} did. */
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

/** Options of {@link Ledger.reorg}. */
export interface ReorgOptions {
  /** Replacement blocks to produce; default `depth` (the height is kept). */
  blocks?: number;
  /** Return the dropped transactions to the pending pool (those still valid there) instead of discarding them. */
  requeue?: boolean;
}

/** The result of a constant (read-only) call. */
export type ConstantCallResult = { kind: "executed"; execution: Trc20Execution } | { kind: "noContract" };

/** A contract the devnode runs natively. */
export type DevContract = { kind: "trc20"; token: Trc20Token } | { kind: "forwarder"; forwarder: ForwarderContract };

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
  private readonly blocks: StoredBlock[] = [];
  private readonly blocksById = new Map<string, StoredBlock>();
  private readonly executedById = new Map<string, ExecutedTransaction>();
  private readonly tokensByAddress = new Map<string, Trc20Token>();
  private pendingState = new LedgerState();
  private pending: ExecutedTransaction[] = [];

  constructor(
    readonly genesis: TronDevnodeGenesis,
    private readonly now: () => number = Date.now,
    options: LedgerOptions = {},
  ) {
    this.energyCosts = resolveEnergyCosts(options.energy);
    this.solidLag = options.solidLag ?? 0;
    if (!Number.isSafeInteger(this.solidLag) || this.solidLag < 0)
      throw new Error(`solidLag must be a non-negative integer, got ${String(options.solidLag)}`);
    this.loadGenesis();
  }

  /** The head block. */
  get head(): StoredBlock {
    return this.blocks[this.blocks.length - 1] as StoredBlock;
  }

  /**
   * The latest solidified block: `solidLag` blocks behind the head (with one witness java-tron would solidify
   * every block at once; mainnet's 27 witnesses leave it about 19 blocks behind).
   */
  get solid(): StoredBlock {
    return this.blocks[Math.max(0, this.head.raw.number - this.solidLag)] as StoredBlock;
  }

  /** State after the solidified block (what /walletsolidity serves). */
  get confirmedState(): LedgerState {
    return this.solid.state as LedgerState;
  }

  /** The chain as `/wallet` (`solidity` false) or `/walletsolidity` (true) serves it. */
  view(solidity: boolean): ChainView {
    if (!solidity) {
      return {
        head: this.head,
        state: this.pendingState,
        blockByNumber: (number) => this.blockByNumber(number),
        blockById: (idHex) => this.blockById(idHex),
        executedTransaction: (idHex) => this.executedTransaction(idHex),
      };
    }
    const solid = this.solid;
    const solidified = (block: StoredBlock | undefined): StoredBlock | undefined =>
      block && block.raw.number <= solid.raw.number ? block : undefined;
    return {
      head: solid,
      state: this.confirmedState,
      blockByNumber: (number) => solidified(this.blockByNumber(number)),
      blockById: (idHex) => solidified(this.blockById(idHex)),
      executedTransaction: (idHex) => {
        const entry = this.executedTransaction(idHex);
        return entry && entry.blockNumber <= solid.raw.number ? entry : undefined;
      },
    };
  }

  /** State including pending transactions (what /wallet serves). */
  get pendingView(): LedgerState {
    return this.pendingState;
  }

  /** Transactions waiting for the next block. */
  get pendingTransactions(): readonly ExecutedTransaction[] {
    return this.pending;
  }

  /** The contract at a 21-byte hex address: a TRC-20 token or the forwarder. */
  contract(addressHex: string): DevContract | undefined {
    const token = this.tokensByAddress.get(addressHex);
    if (token) return { kind: "trc20", token };
    return addressHex === this.genesis.forwarder.hex ? { kind: "forwarder", forwarder: this.genesis.forwarder } : undefined;
  }

  /** Block by number, or undefined. */
  blockByNumber(number: number): StoredBlock | undefined {
    return Number.isSafeInteger(number) && number >= 0 ? this.blocks[number] : undefined;
  }

  /** Block by blockID hex, or undefined. */
  blockById(idHex: string): StoredBlock | undefined {
    return this.blocksById.get(idHex.toLowerCase());
  }

  /** A transaction that is in a block, by txID hex. */
  executedTransaction(idHex: string): ExecutedTransaction | undefined {
    return this.executedById.get(idHex.toLowerCase());
  }

  /** The txID of a pending transaction, if `idHex` is one. */
  isPending(idHex: string): boolean {
    return this.pending.some((entry) => entry.id === idHex.toLowerCase());
  }

  /** Packs every pending transaction into a new block signed by the witness. */
  produceBlock(): StoredBlock {
    const transactions = this.pending;
    this.pending = [];
    return this.appendBlock(transactions, this.pendingState);
  }

  /**
   * Replaces the newest `depth` blocks (a chain reorganisation, for scanner tests): drops them, produces
   * `options.blocks` (default `depth`) empty replacement blocks whose blockIDs differ from the dropped ones, then
   * re-broadcasts onto the new head the dropped transactions (only with `requeue`) and the pending ones; those
   * no longer valid there (TAPOS to a dropped block, expired, spent balance) are discarded.
   */
  reorg(depth: number, options: ReorgOptions = {}): ReorgResult {
    const replacements = options.blocks ?? depth;
    const forkNumber = this.head.raw.number - depth;
    if (!Number.isSafeInteger(depth) || depth < 1 || forkNumber < 0)
      throw new RangeError(`depth must be an integer from 1 to ${this.head.raw.number}, got ${depth}`);
    if (!Number.isSafeInteger(replacements) || replacements < 0)
      throw new RangeError(`blocks must be a non-negative integer, got ${String(options.blocks)}`);
    const fork = this.blocks[forkNumber] as StoredBlock;
    if (!fork.state) throw new RangeError(`depth ${depth} is beyond the ${this.keptStates() - 1} blocks the devnode can replace`);
    const newSolid = Math.max(0, forkNumber + replacements - this.solidLag);
    if (newSolid < forkNumber && !this.blocks[newSolid]?.state) {
      throw new RangeError(`blocks ${replacements} would move the solidified block behind the states the devnode keeps`);
    }

    const dropped = this.blocks.splice(forkNumber + 1);
    for (const block of dropped) {
      this.blocksById.delete(block.idHex);
      for (const entry of block.transactions) this.executedById.delete(entry.id);
    }
    const droppedEntries = dropped.flatMap((block) => block.transactions);
    const retry = [...(options.requeue ? droppedEntries : []), ...this.pending];
    const discarded = options.requeue ? [] : droppedEntries.map((entry) => entry.id);
    this.pending = [];
    this.pendingState = fork.state.clone();
    const produced: StoredBlock[] = [];
    for (let index = 0; index < replacements; index += 1) {
      // A timestamp after the replaced block's gives the replacement a different blockID even with equal contents.
      produced.push(this.appendBlock([], this.pendingState, (dropped[index]?.raw.timestamp ?? 0) + 1));
    }
    const requeued: string[] = [];
    for (const entry of retry) {
      try {
        this.broadcast({ raw: entry.transaction.raw, signatures: entry.transaction.signatures });
        if (droppedEntries.includes(entry)) requeued.push(entry.id);
      } catch (error) {
        if (!(error instanceof TransactionRejected)) throw error;
        discarded.push(entry.id);
      }
    }
    return { dropped, produced, requeued, discarded };
  }

  /**
   * Validates, charges and executes a signed transaction on the pending state, like java-tron's
   * `Wallet.broadcastTransaction`; throws {@link TransactionRejected} with java-tron's code and message.
   */
  broadcast(transaction: Transaction): ExecutedTransaction {
    const raw = transaction.raw;
    const txId = transactionId(raw);
    const id = toHex(txId);
    // Wallet.broadcastTransaction: no contract, then expiration against the next slot.
    const contract = raw.contract[0];
    if (!contract) throw contractValidateError("No contract!");
    if (raw.expiration < this.head.raw.timestamp + BLOCK_SLOT_MS) {
      throw new TransactionRejected("TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
    }
    // Manager.pushTransaction checks the signature (of contract 0's owner) first, then processTransaction
    // checks the contract count, TAPOS, size and expiration window, duplicates, and runs the actuator.
    this.validateSignature(transaction, txId, contract);
    if (raw.contract.length !== 1) {
      throw contractValidateError(`tx ${id} contract size should be exactly 1, this is extend feature ,actual :${raw.contract.length}`);
    }
    this.validateTapos(raw);
    this.validateCommon(transaction);
    if (this.executedById.has(id) || this.isPending(id)) throw new TransactionRejected("DUP_TRANSACTION_ERROR", "Dup transaction.");

    const draft = this.pendingState.clone();
    const executed = this.execute(draft, transaction, contract, id);
    this.pendingState = draft;
    this.pending.push(executed);
    return executed;
  }

  /** Runs the actuator's validation only (what the node's transaction builders do); throws CONTRACT_VALIDATE_ERROR. */
  validateForBuilder(contract: TransactionContract, feeLimit: number): void {
    const state = this.pendingState.clone();
    if (contract.type === "TriggerSmartContract") this.validateTrigger(state, contract.value.contract_address, feeLimit);
    else this.validateSystemContract(state, contract);
  }

  /** Raw data as the node's builders produce it: referencing the solid block, expiring 60 s after the head block. */
  builderRaw(contract: TransactionContract, options: { feeLimit?: number; memo?: Uint8Array } = {}): TransactionRaw {
    const reference = this.solid;
    const numberBytes = new Uint8Array(8);
    new DataView(numberBytes.buffer).setBigUint64(0, BigInt(reference.raw.number));
    return {
      refBlockBytes: numberBytes.subarray(...REF_BLOCK_BYTES_RANGE),
      refBlockNum: 0,
      refBlockHash: reference.id.subarray(...REF_BLOCK_HASH_RANGE),
      expiration: this.head.raw.timestamp + BUILDER_EXPIRATION_MS,
      data: options.memo ?? new Uint8Array(),
      contract: [contract],
      timestamp: this.now(),
      feeLimit: options.feeLimit ?? 0,
    };
  }

  /**
   * Executes a call without committing anything (triggerconstantcontract, estimateenergy, eth_call); throws
   * CONTRACT_VALIDATE_ERROR when the caller cannot send the value it names.
   */
  callConstant(call: TriggerSmartContractValue, confirmed = false): ConstantCallResult {
    const state = (confirmed ? this.confirmedState : this.pendingState).clone();
    const target = this.contract(toHex(call.contract_address));
    if (target?.kind === "trc20") {
      const storage = state.contracts.get(target.token.hex);
      if (!storage) return { kind: "noContract" };
      const execution = executeTrc20(
        target.token,
        storage,
        toHex(call.owner_address),
        call.data,
        call.call_value,
        call.call_token_value,
        this.energyCosts,
      );
      return { kind: "executed", execution };
    }
    if (!target || state.accounts.get(target.forwarder.hex)?.type !== "Contract") return { kind: "noContract" };
    if (call.call_value > 0 || call.call_token_value > 0) this.validateCallValue(state, call);
    this.moveCallValue(state, call, target.forwarder.hex);
    const execution = executeForwarder(state, {
      contractHex: target.forwarder.hex,
      data: call.data,
      callValue: call.call_value,
      tokenId: call.token_id,
      tokenValue: call.call_token_value,
      txId: new Uint8Array(32),
      energyLimit: CONSTANT_CALL_ENERGY_LIMIT,
      now: this.head.raw.timestamp,
    });
    const status = execution.status === "SUCCESS" ? "SUCCESS" : "REVERT";
    return {
      kind: "executed",
      execution: { status, energyUsed: execution.energyUsed, energyPenalty: 0, returnData: execution.returnData, logs: [] },
    };
  }

  private loadGenesis(): void {
    const time = this.genesis.timestamp;
    const state = new LedgerState();
    for (const account of this.genesis.accounts) {
      const record = state.createAccount(account.hex, time);
      record.balance = account.balanceSun;
      for (const [tokenId, amount] of Object.entries(account.trc10)) record.assets.set(tokenId, amount);
    }
    if (!state.accounts.has(this.genesis.witness.hex)) state.createAccount(this.genesis.witness.hex, time);
    state.createAccount(this.genesis.forwarder.hex, time).type = "Contract";
    for (const token of this.genesis.trc20) {
      this.tokensByAddress.set(token.hex, token);
      const contractAccount = state.createAccount(token.hex, time);
      contractAccount.type = "Contract";
      const storage = { balances: new Map<string, bigint>(), allowances: new Map<string, bigint>() };
      for (const account of this.genesis.accounts) {
        const amount = account.trc20[token.base58];
        if (amount !== undefined) storage.balances.set(account.hex, BigInt(amount));
      }
      state.contracts.set(token.hex, storage);
    }
    this.sealBlock(0, time, new Uint8Array(32), computeTxTrieRoot([]), [], state);
    this.pendingState = state.clone();
  }

  /** Blocks (the head included) whose state is kept. */
  private keptStates(): number {
    return Math.max(this.solidLag, MAX_REORG_DEPTH) + 1;
  }

  /** Seals `transactions` (already applied to `state`) into the next block; `state` becomes the head's and is never mutated again. */
  private appendBlock(transactions: ExecutedTransaction[], state: LedgerState, minTimestamp = 0): StoredBlock {
    const parent = this.head;
    const timestamp = Math.max(this.now(), parent.raw.timestamp + MIN_BLOCK_GAP_MS, minTimestamp);
    const leaves = transactions.map((entry) => encodeTransaction(entry.transaction));
    const block = this.sealBlock(parent.raw.number + 1, timestamp, parent.id, computeTxTrieRoot(leaves), transactions, state);
    for (const entry of transactions) {
      entry.blockNumber = block.raw.number;
      entry.blockTimestamp = timestamp;
      this.executedById.set(entry.id, entry);
    }
    this.pendingState = state.clone();
    const expired = this.blocks[block.raw.number - this.keptStates()];
    if (expired) delete expired.state;
    return block;
  }

  private sealBlock(
    number: number,
    timestamp: number,
    parentHash: Uint8Array,
    txTrieRoot: Uint8Array,
    transactions: ExecutedTransaction[],
    state: LedgerState,
  ): StoredBlock {
    const raw: BlockHeaderRaw = {
      timestamp,
      txTrieRoot,
      parentHash,
      number,
      witnessId: 0,
      witnessAddress: Buffer.from(this.genesis.witness.hex, "hex"),
      version: BLOCK_VERSION,
      accountStateRoot: new Uint8Array(),
    };
    const signature = secp256k1.sign(sha256(encodeBlockHeaderRaw(raw)), this.genesis.witness.privateKey, { lowS: true });
    const witnessSignature = concatBytes(signature.toCompactRawBytes(), Uint8Array.of(signature.recovery));
    const id = computeBlockId(raw);
    const block: StoredBlock = { raw, id, idHex: toHex(id), witnessSignature, transactions, state };
    this.blocks.push(block);
    this.blocksById.set(block.idHex, block);
    return block;
  }

  private validateTapos(raw: TransactionRaw): void {
    const refBytes = raw.refBlockBytes;
    const headNumber = this.head.raw.number;
    if (refBytes.length === 2) {
      const low = ((refBytes[0] ?? 0) << 8) | (refBytes[1] ?? 0);
      // The most recent block whose number ends in these two bytes (java-tron's RecentBlockStore).
      const candidate = headNumber - ((headNumber - low + TAPOS_RECENT_BLOCKS) % TAPOS_RECENT_BLOCKS);
      const block = candidate >= 0 ? this.blocks[candidate] : undefined;
      if (block && bytesEqual(block.id.subarray(...REF_BLOCK_HASH_RANGE), raw.refBlockHash)) return;
    }
    throw new TransactionRejected("TAPOS_ERROR", "Tapos check error.");
  }

  private validateCommon(transaction: Transaction): void {
    const size = encodeTransaction(transaction, false).length;
    if (size + 2 * MAX_RESULT_SIZE_IN_TX > TRANSACTION_MAX_BYTE_SIZE) {
      throw new TransactionRejected(
        "TOO_BIG_TRANSACTION_ERROR",
        `Too big transaction with result, TxId ${toHex(transactionId(transaction.raw))}, the size is ${size + 2 * MAX_RESULT_SIZE_IN_TX} bytes, maxTxSize ${TRANSACTION_MAX_BYTE_SIZE}`,
      );
    }
    const headTime = this.head.raw.timestamp;
    const expiration = transaction.raw.expiration;
    if (expiration <= headTime || expiration > headTime + MAXIMUM_TIME_UNTIL_EXPIRATION_MS) {
      throw new TransactionRejected("TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
    }
  }

  /** A plain account's owner and active permissions both hold its own key with weight 1, threshold 1. */
  private validateSignature(transaction: Transaction, txId: Uint8Array, contract: TransactionContract): void {
    const fail = (message: string): TransactionRejected => new TransactionRejected("SIGERROR", `Validate signature error: ${message}`);
    if (transaction.signatures.length === 0) throw fail("miss sig or contract");
    if (contract.permissionId !== OWNER_PERMISSION_ID && contract.permissionId !== ACTIVE_PERMISSION_ID)
      throw fail("permission isn't exit");
    const keyCount = 1;
    if (transaction.signatures.length > keyCount) {
      throw fail(`Signature count is ${transaction.signatures.length} more than key counts of permission : ${keyCount}`);
    }
    const owner = contract.value.owner_address;
    for (const signature of transaction.signatures) {
      if (signature.length < SIGNATURE_LENGTH) throw fail(`Signature size is ${signature.length}`);
      const signer = recoverSigner(txId, signature);
      if (!signer) throw fail("sig error");
      if (!bytesEqual(signer, owner)) {
        throw fail(`${toHex(signature)} is signed by ${addressToBase58(signer)} but it is not contained of permission.`);
      }
    }
  }

  private execute(state: LedgerState, transaction: Transaction, contract: TransactionContract, id: string): ExecutedTransaction {
    const owner = toHex(contract.value.owner_address);
    const ownerAccount = state.accounts.get(owner);
    if (!ownerAccount) throw contractValidateError(`account [${safeBase58(contract.value.owner_address)}] does not exist`);
    const bandwidth = this.consumeBandwidth(state, transaction, contract, ownerAccount);
    const base = {
      id,
      netUsage: bandwidth.netUsage,
      netFee: bandwidth.netFee,
      energyFee: 0,
      energyUsageTotal: 0,
      energyPenaltyTotal: 0,
      contractResult: new Uint8Array(),
      logs: [] as EvmLog[],
      internalTransactions: [] as InternalTransaction[],
      blockNumber: 0,
      blockTimestamp: 0,
    };
    if (contract.type === "TriggerSmartContract") {
      const call = this.executeTrigger(state, contract, transaction.raw.feeLimit, ownerAccount, Buffer.from(id, "hex"));
      return {
        ...base,
        transaction: { ...transaction, contractRet: call.contractRet },
        fee: bandwidth.netFee + call.energyFee,
        energyFee: call.energyFee,
        energyUsageTotal: call.energyUsed,
        energyPenaltyTotal: call.energyPenalty,
        receiptResult: call.contractRet,
        contractResult: call.returnData,
        contractAddress: contract.value.contract_address,
        logs: call.logs,
        internalTransactions: call.internalTransactions,
        ...(call.resMessage === undefined ? {} : { resMessage: call.resMessage }),
      };
    }
    const actuatorFee = this.validateSystemContract(state, contract);
    this.executeSystemContract(state, contract, actuatorFee);
    return { ...base, transaction: { ...transaction, contractRet: "SUCCESS" }, fee: bandwidth.netFee + actuatorFee };
  }

  /** java-tron's BandwidthProcessor without staking: account creation fee, then free bandwidth, then burning TRX. */
  private consumeBandwidth(
    state: LedgerState,
    transaction: Transaction,
    contract: TransactionContract,
    owner: AccountRecord,
  ): { netUsage: number; netFee: number } {
    const bytes = encodeTransaction(transaction, false).length + MAX_RESULT_SIZE_IN_TX;
    const now = this.head.raw.timestamp;
    owner.latestOperationTime = now;
    const createsAccount = contract.type !== "TriggerSmartContract" && !state.accounts.has(toHex(contract.value.to_address));
    if (createsAccount) {
      if (owner.balance < CREATE_ACCOUNT_FEE_SUN) throw new TransactionRejected("BANDWITH_ERROR", "Account resource insufficient error.");
      owner.balance -= CREATE_ACCOUNT_FEE_SUN;
      return { netUsage: 0, netFee: CREATE_ACCOUNT_FEE_SUN };
    }
    const usage = recoveredUsage(owner.freeNetUsage, owner.latestConsumeFreeTime, now);
    if (bytes <= FREE_NET_LIMIT_BYTES - usage) {
      owner.freeNetUsage = usage + bytes;
      owner.latestConsumeFreeTime = now;
      return { netUsage: bytes, netFee: 0 };
    }
    const fee = bytes * TRANSACTION_FEE_SUN_PER_BYTE;
    if (owner.balance < fee) throw new TransactionRejected("BANDWITH_ERROR", "Account resource insufficient error.");
    owner.balance -= fee;
    return { netUsage: 0, netFee: fee };
  }

  /** TransferActuator / TransferAssetActuator validation; returns the actuator fee (account creation). */
  private validateSystemContract(state: LedgerState, contract: Exclude<TransactionContract, { type: "TriggerSmartContract" }>): number {
    const { owner_address: owner, to_address: to, amount } = contract.value;
    const ownerAccount = state.accounts.get(toHex(owner));
    const toAccount = state.accounts.get(toHex(to));
    if (contract.type === "TransferContract") {
      if (!isValidAddress(owner)) throw contractValidateError("Invalid ownerAddress!");
      if (!isValidAddress(to)) throw contractValidateError("Invalid toAddress!");
      if (bytesEqual(owner, to)) throw contractValidateError("Cannot transfer TRX to yourself.");
      if (!ownerAccount) throw contractValidateError("Validate TransferContract error, no OwnerAccount.");
      if (amount <= 0) throw contractValidateError("Amount must be greater than 0.");
      const fee = toAccount ? 0 : CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN;
      if (toAccount?.type === "Contract") throw contractValidateError("Cannot transfer TRX to a smartContract.");
      if (ownerAccount.balance < amount + fee || !Number.isSafeInteger(amount + fee)) {
        throw contractValidateError("Validate TransferContract error, balance is not sufficient.");
      }
      if (toAccount && !Number.isSafeInteger(toAccount.balance + amount)) throw contractValidateError("long overflow");
      return fee;
    }
    if (!isValidAddress(owner)) throw contractValidateError("Invalid ownerAddress");
    if (!isValidAddress(to)) throw contractValidateError("Invalid toAddress");
    if (amount <= 0) throw contractValidateError("Amount must be greater than 0.");
    if (bytesEqual(owner, to)) throw contractValidateError("Cannot transfer asset to yourself.");
    if (!ownerAccount) throw contractValidateError("No owner account!");
    const tokenId = new TextDecoder().decode(contract.value.asset_name);
    if (!this.genesis.trc10.some((token) => token.id === tokenId)) throw contractValidateError("No asset!");
    const assetBalance = ownerAccount.assets.get(tokenId) ?? 0;
    if (assetBalance <= 0) throw contractValidateError("assetBalance must be greater than 0.");
    if (amount > assetBalance) throw contractValidateError("assetBalance is not sufficient.");
    if (toAccount?.type === "Contract") throw contractValidateError("Cannot transfer asset to smartContract.");
    if (toAccount && !Number.isSafeInteger((toAccount.assets.get(tokenId) ?? 0) + amount)) throw contractValidateError("long overflow");
    return toAccount ? 0 : CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN;
  }

  private executeSystemContract(
    state: LedgerState,
    contract: Exclude<TransactionContract, { type: "TriggerSmartContract" }>,
    fee: number,
  ): void {
    const now = this.head.raw.timestamp;
    const ownerAccount = state.accounts.get(toHex(contract.value.owner_address)) as AccountRecord;
    const toHexAddress = toHex(contract.value.to_address);
    const toAccount = state.accounts.get(toHexAddress) ?? state.createAccount(toHexAddress, now);
    if (ownerAccount.balance < fee) {
      throw new TransactionRejected(
        "CONTRACT_EXE_ERROR",
        `Contract execute error : ${addressToBase58(contract.value.owner_address)} insufficient balance, balance: ${ownerAccount.balance}, amount: ${fee}`,
      );
    }
    ownerAccount.balance -= fee;
    if (contract.type === "TransferContract") {
      ownerAccount.balance -= contract.value.amount;
      toAccount.balance += contract.value.amount;
      return;
    }
    const tokenId = new TextDecoder().decode(contract.value.asset_name);
    ownerAccount.assets.set(tokenId, (ownerAccount.assets.get(tokenId) ?? 0) - contract.value.amount);
    toAccount.assets.set(tokenId, (toAccount.assets.get(tokenId) ?? 0) + contract.value.amount);
  }

  private validateTrigger(state: LedgerState, contractAddress: Uint8Array, feeLimit: number): DevContract {
    const target = this.contract(toHex(contractAddress));
    const deployed =
      target?.kind === "trc20" ? state.contracts.has(target.token.hex) : state.accounts.get(toHex(contractAddress))?.type === "Contract";
    if (!target || !deployed) throw contractValidateError("No contract or not a valid smart contract");
    if (feeLimit < 0 || feeLimit > MAX_FEE_LIMIT_SUN) throw contractValidateError(`feeLimit must be >= 0 and <= ${MAX_FEE_LIMIT_SUN}`);
    return target;
  }

  /** What the caller sends along: VMActuator's `checkTokenValueAndId`, then MUtil.transfer/transferToken's validation. */
  private validateCallValue(state: LedgerState, value: CallValue): void {
    const { call_value: callValue, call_token_value: tokenValue, token_id: tokenId } = value;
    if (tokenId !== 0 && tokenId <= MIN_TOKEN_ID) throw contractValidateError(`tokenId must be > ${MIN_TOKEN_ID}`);
    if (tokenValue > 0 && tokenId === 0)
      throw contractValidateError(`invalid arguments with tokenValue = ${tokenValue}, tokenId = ${tokenId}`);
    // Negative values would move value backwards; java-tron's transfers refuse them (the wording here is the devnode's).
    if (callValue < 0 || tokenValue < 0) throw contractValidateError("Amount must greater than 0.");
    const owner = state.accounts.get(toHex(value.owner_address));
    if (!owner || owner.balance < callValue) throw contractValidateError("Validate InternalTransfer error, balance is not sufficient.");
    if (tokenValue === 0) return;
    const id = String(tokenId);
    if (!this.genesis.trc10.some((token) => token.id === id)) throw contractValidateError("No asset !");
    const assetBalance = owner.assets.get(id) ?? 0;
    if (assetBalance <= 0) throw contractValidateError("assetBalance must greater than 0.");
    if (tokenValue > assetBalance) throw contractValidateError("assetBalance is not sufficient.");
  }

  /** VMActuator moves the call value and token value into the contract before its code runs. */
  private moveCallValue(state: LedgerState, value: CallValue, contractHex: string): void {
    const owner = state.accounts.get(toHex(value.owner_address));
    const contract = state.accounts.get(contractHex);
    if (!owner || !contract) return;
    owner.balance -= value.call_value;
    contract.balance += value.call_value;
    if (value.call_token_value === 0) return;
    const id = String(value.token_id);
    owner.assets.set(id, (owner.assets.get(id) ?? 0) - value.call_token_value);
    contract.assets.set(id, (contract.assets.get(id) ?? 0) + value.call_token_value);
  }

  /** The VM: validation, the energy limit from fee_limit and balance, then the contract's code. */
  private executeTrigger(
    state: LedgerState,
    contract: Extract<TransactionContract, { type: "TriggerSmartContract" }>,
    feeLimit: number,
    owner: AccountRecord,
    txId: Uint8Array,
  ): TriggerOutcome {
    const target = this.validateTrigger(state, contract.value.contract_address, feeLimit);
    this.validateCallValue(state, contract.value);
    // VMActuator.getAccountEnergyLimitWithFixRatio: the balance left after the call value pays for energy.
    const energyLimit = Math.min(
      Math.floor(feeLimit / ENERGY_FEE_SUN),
      Math.floor(Math.max(owner.balance - contract.value.call_value, 0) / ENERGY_FEE_SUN),
    );
    if (target.kind === "forwarder") return this.executeForwarderCall(state, contract.value, target.forwarder, energyLimit, txId);
    return this.executeTrc20Call(state, contract.value, target.token, energyLimit, owner);
  }

  /** A TRC-20 call: OUT_OF_ENERGY when the call's cost exceeds the limit (checked after the native run). */
  private executeTrc20Call(
    state: LedgerState,
    value: TriggerSmartContractValue,
    token: Trc20Token,
    energyLimit: number,
    owner: AccountRecord,
  ): TriggerOutcome {
    const storage = state.contracts.get(token.hex);
    const scratch = { balances: new Map(storage?.balances), allowances: new Map(storage?.allowances) };
    const execution = executeTrc20(token, scratch, owner.address, value.data, value.call_value, value.call_token_value, this.energyCosts);
    if (execution.energyUsed > energyLimit) {
      const energyFee = energyLimit * ENERGY_FEE_SUN;
      owner.balance -= energyFee;
      return {
        contractRet: "OUT_OF_ENERGY",
        energyUsed: energyLimit,
        // The whole limit is consumed; its penalty share is the call's (the devnode does not trace opcodes).
        energyPenalty: Math.floor((energyLimit * execution.energyPenalty) / execution.energyUsed),
        energyFee,
        returnData: new Uint8Array(),
        logs: [],
        internalTransactions: [],
        resMessage: outOfEnergyMessage(energyLimit, this.energyCosts),
      };
    }
    const energyFee = execution.energyUsed * ENERGY_FEE_SUN;
    owner.balance -= energyFee;
    const used = { energyUsed: execution.energyUsed, energyPenalty: execution.energyPenalty, energyFee, internalTransactions: [] };
    if (execution.status === "REVERT") {
      return { contractRet: "REVERT", ...used, returnData: execution.returnData, logs: [], resMessage: "REVERT opcode executed" };
    }
    if (storage) {
      storage.balances = scratch.balances;
      storage.allowances = scratch.allowances;
    }
    return { contractRet: "SUCCESS", ...used, returnData: execution.returnData, logs: execution.logs };
  }

  /**
   * A forwarder call, run on a copy of the state: kept when it succeeds, dropped when it fails (the call value goes
   * back to the caller); the energy is paid either way. No dynamic-energy penalty (only the tokens are "popular").
   */
  private executeForwarderCall(
    state: LedgerState,
    value: TriggerSmartContractValue,
    forwarder: ForwarderContract,
    energyLimit: number,
    txId: Uint8Array,
  ): TriggerOutcome {
    const scratch = state.clone();
    this.moveCallValue(scratch, value, forwarder.hex);
    const execution: ForwarderExecution = executeForwarder(scratch, {
      contractHex: forwarder.hex,
      data: value.data,
      callValue: value.call_value,
      tokenId: value.token_id,
      tokenValue: value.call_token_value,
      txId,
      energyLimit,
      now: this.head.raw.timestamp,
    });
    if (execution.status === "SUCCESS") state.commit(scratch);
    const energyFee = execution.energyUsed * ENERGY_FEE_SUN;
    (state.accounts.get(toHex(value.owner_address)) as AccountRecord).balance -= energyFee;
    return {
      contractRet: execution.status,
      energyUsed: execution.energyUsed,
      energyPenalty: 0,
      energyFee,
      returnData: execution.returnData,
      logs: [],
      internalTransactions: execution.internalTransactions,
      ...(execution.resMessage === undefined ? {} : { resMessage: execution.resMessage }),
    };
  }
}

/** What a TriggerSmartContract sends its contract. */
type CallValue = Pick<TriggerSmartContractValue, "owner_address" | "call_value" | "call_token_value" | "token_id">;

/** What a contract call did, for its ExecutedTransaction. */
interface TriggerOutcome {
  contractRet: ContractResult;
  energyUsed: number;
  energyPenalty: number;
  energyFee: number;
  returnData: Uint8Array;
  logs: EvmLog[];
  internalTransactions: InternalTransaction[];
  resMessage?: string;
}

/**
 * java-tron's `Program.spendEnergy`/`spendEnergyWithPenalty` message for the SSTORE that did not fit: the energy
 * used before it is whatever leaves less than the SSTORE (with its penalty) under the limit.
 */
function outOfEnergyMessage(energyLimit: number, costs: EnergyCosts): string {
  const penalty = energyPenalty(SSTORE_ENERGY, costs);
  const usedBefore = Math.max(0, energyLimit - (SSTORE_ENERGY + penalty) + 1);
  const head = `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${energyLimit}], curOpEnergy[${SSTORE_ENERGY}], `;
  return penalty > 0 ? `${head}penaltyEnergy[${penalty}], usedEnergy[${usedBefore}]` : `${head}usedEnergy[${usedBefore}]`;
}

function recoveredUsage(usage: number, lastTime: number, now: number): number {
  const elapsed = now - lastTime;
  if (elapsed >= NET_WINDOW_MS || usage === 0) return 0;
  return Math.ceil((usage * (NET_WINDOW_MS - Math.max(elapsed, 0))) / NET_WINDOW_MS);
}

function safeBase58(address: Uint8Array): string {
  return isValidAddress(address) ? addressToBase58(address) : toHex(address);
}

/** Parses a 64-hex txID or blockID; undefined otherwise. */
export function parseHash(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const bytes = parseHex(text);
  return bytes && bytes.length === 32 ? toHex(bytes) : undefined;
}
