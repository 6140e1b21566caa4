import { executeForwarder } from "../forwarder-contract.ts";
import { toHex } from "../hex.ts";
import type { LedgerState } from "../ledger-state.ts";
import { executeTrc20 } from "../trc20-token.ts";
import type { Trc20Execution } from "../trc20-token.ts";
import type { TriggerSmartContractValue } from "../transaction.ts";
import { moveCallValue, validateCallValue } from "./call-value.ts";
import { findContract, headBlock, solidBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";

/** The energy limit of a constant call (java-tron's `vm.maxEnergyLimitForConstant` default). */
const CONSTANT_CALL_ENERGY_LIMIT = 100_000_000;

/** The result of a constant (read-only) call. */
export type ConstantCallResult = { kind: "executed"; execution: Trc20Execution } | { kind: "noContract" };

/**
 * Executes a call without committing anything (triggerconstantcontract, estimateenergy, eth_call); throws
 * CONTRACT_VALIDATE_ERROR when the caller cannot send the value it names.
 */
export function callConstant(chain: LedgerChain, call: TriggerSmartContractValue, confirmed = false): ConstantCallResult {
  const state = (confirmed ? (solidBlock(chain).state as LedgerState) : chain.pendingState).clone();
  const target = findContract(chain, toHex(call.contract_address));
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
      chain.energyCosts,
    );
    return { kind: "executed", execution };
  }
  if (!target || state.accounts.get(target.forwarder.hex)?.type !== "Contract") return { kind: "noContract" };
  if (call.call_value > 0 || call.call_token_value > 0) validateCallValue(chain, state, call);
  moveCallValue(state, call, target.forwarder.hex);
  const execution = executeForwarder(state, {
    contractHex: target.forwarder.hex,
    data: call.data,
    callValue: call.call_value,
    tokenId: call.token_id,
    tokenValue: call.call_token_value,
    txId: new Uint8Array(32),
    energyLimit: CONSTANT_CALL_ENERGY_LIMIT,
    now: headBlock(chain).raw.timestamp,
  });
  const status = execution.status === "SUCCESS" ? "SUCCESS" : "REVERT";
  return {
    kind: "executed",
    execution: { status, energyUsed: execution.energyUsed, energyPenalty: 0, returnData: execution.returnData, logs: [] },
  };
}
