import { ENERGY_FEE_SUN } from "../chain-parameters.ts";
import { executeForwarder } from "../forwarder-contract.ts";
import type { ForwarderExecution } from "../forwarder-contract.ts";
import type { ForwarderContract } from "../genesis.ts";
import { toHex } from "../hex.ts";
import type { AccountRecord, LedgerState } from "../ledger-state.ts";
import type { TriggerSmartContractValue } from "../transaction.ts";
import { moveCallValue } from "./call-value.ts";
import { headBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import type { TriggerOutcome } from "./trigger-outcome.ts";

/**
 * A forwarder call, run on a copy of the state: kept when it succeeds, dropped when it fails (the call value goes
 * back to the caller); the energy is paid either way. No dynamic-energy penalty (only the tokens are "popular").
 */
export function executeForwarderCall(
  chain: LedgerChain,
  state: LedgerState,
  value: TriggerSmartContractValue,
  forwarder: ForwarderContract,
  energyLimit: number,
  txId: Uint8Array,
): TriggerOutcome {
  const scratch = state.clone();
  moveCallValue(scratch, value, forwarder.hex);
  const execution: ForwarderExecution = executeForwarder(scratch, {
    contractHex: forwarder.hex,
    data: value.data,
    callValue: value.call_value,
    tokenId: value.token_id,
    tokenValue: value.call_token_value,
    txId,
    energyLimit,
    now: headBlock(chain).raw.timestamp,
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
