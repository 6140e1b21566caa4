import { addressToBase58, isValidAddress } from "../address.ts";
import type { InternalTransaction } from "../forwarder-contract.ts";
import { toHex } from "../hex.ts";
import type { LedgerState } from "../ledger-state.ts";
import type { EvmLog } from "../trc20-token.ts";
import type { Transaction, TransactionContract } from "../transaction.ts";
import { consumeBandwidth } from "./consume-bandwidth.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";
import { executeTrigger } from "./execute-trigger.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { executeSystemContract, validateSystemContract } from "./system-contract.ts";
import { contractValidateError } from "./transaction-rejected.ts";

/** Charges bandwidth, then runs the contract's actuator (or the VM) on `state`; returns what the transaction did. */
export function executeTransaction(
  chain: LedgerChain,
  state: LedgerState,
  transaction: Transaction,
  contract: TransactionContract,
  id: string,
): ExecutedTransaction {
  const owner = toHex(contract.value.owner_address);
  const ownerAccount = state.accounts.get(owner);
  if (!ownerAccount) throw contractValidateError(`account [${safeBase58(contract.value.owner_address)}] does not exist`);
  const bandwidth = consumeBandwidth(chain, state, transaction, contract, ownerAccount);
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
    const call = executeTrigger(chain, state, contract, transaction.raw.feeLimit, ownerAccount, Buffer.from(id, "hex"));
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
  const actuatorFee = validateSystemContract(chain, state, contract);
  executeSystemContract(chain, state, contract, actuatorFee);
  return { ...base, transaction: { ...transaction, contractRet: "SUCCESS" }, fee: bandwidth.netFee + actuatorFee };
}

function safeBase58(address: Uint8Array): string {
  return isValidAddress(address) ? addressToBase58(address) : toHex(address);
}
