import { ENERGY_FEE_SUN } from "../chain-parameters.ts";
import { energyPenalty } from "../energy-costs.ts";
import type { EnergyCosts } from "../energy-costs.ts";
import type { Trc20Token } from "../genesis.ts";
import type { AccountRecord, LedgerState } from "../ledger-state.ts";
import { executeTrc20 } from "../trc20-token.ts";
import type { TriggerSmartContractValue } from "../transaction.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import type { TriggerOutcome } from "./trigger-outcome.ts";

const SSTORE_ENERGY = 20_000;

/** A TRC-20 call: OUT_OF_ENERGY when the call's cost exceeds the limit (checked after the native run). */
export function executeTrc20Call(
  chain: LedgerChain,
  state: LedgerState,
  value: TriggerSmartContractValue,
  token: Trc20Token,
  energyLimit: number,
  owner: AccountRecord,
): TriggerOutcome {
  const storage = state.contracts.get(token.hex);
  const scratch = { balances: new Map(storage?.balances), allowances: new Map(storage?.allowances) };
  const execution = executeTrc20(token, scratch, owner.address, value.data, value.call_value, value.call_token_value, chain.energyCosts);
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
      resMessage: outOfEnergyMessage(energyLimit, chain.energyCosts),
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
 * java-tron's `Program.spendEnergy`/`spendEnergyWithPenalty` message for the SSTORE that did not fit: the energy
 * used before it is whatever leaves less than the SSTORE (with its penalty) under the limit.
 */
function outOfEnergyMessage(energyLimit: number, costs: EnergyCosts): string {
  const penalty = energyPenalty(SSTORE_ENERGY, costs);
  const usedBefore = Math.max(0, energyLimit - (SSTORE_ENERGY + penalty) + 1);
  const head = `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${energyLimit}], curOpEnergy[${SSTORE_ENERGY}], `;
  return penalty > 0 ? `${head}penaltyEnergy[${penalty}], usedEnergy[${usedBefore}]` : `${head}usedEnergy[${usedBefore}]`;
}
