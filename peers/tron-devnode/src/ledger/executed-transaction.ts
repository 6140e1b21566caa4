import type { InternalTransaction } from "../forwarder-contract.ts";
import type { EvmLog } from "../trc20-token.ts";
import type { ContractResult, Transaction } from "../transaction.ts";

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
