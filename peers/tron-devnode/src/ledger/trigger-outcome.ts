import type { InternalTransaction } from "../forwarder-contract.ts";
import type { EvmLog } from "../trc20-token.ts";
import type { ContractResult } from "../transaction.ts";

/** What a contract call did, for its ExecutedTransaction. */
export interface TriggerOutcome {
  contractRet: ContractResult;
  energyUsed: number;
  energyPenalty: number;
  energyFee: number;
  returnData: Uint8Array;
  logs: EvmLog[];
  internalTransactions: InternalTransaction[];
  resMessage?: string;
}
