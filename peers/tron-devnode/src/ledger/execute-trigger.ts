/** TriggerSmartContract: java-tron's VMActuator for the contracts the devnode runs natively. */
import { ENERGY_FEE_SUN, MAX_FEE_LIMIT_SUN } from "../chain-parameters.ts";
import { toHex } from "../hex.ts";
import type { AccountRecord, LedgerState } from "../ledger-state.ts";
import type { TransactionContract } from "../transaction.ts";
import { validateCallValue } from "./call-value.ts";
import { executeForwarderCall } from "./execute-forwarder-call.ts";
import { executeTrc20Call } from "./execute-trc20-call.ts";
import { findContract } from "./ledger-chain.ts";
import type { DevContract, LedgerChain } from "./ledger-chain.ts";
import { contractValidateError } from "./transaction-rejected.ts";
import type { TriggerOutcome } from "./trigger-outcome.ts";

/** The called contract must exist (deployed in `state`) and the fee limit be in range; returns the contract. */
export function validateTrigger(chain: LedgerChain, state: LedgerState, contractAddress: Uint8Array, feeLimit: number): DevContract {
  const target = findContract(chain, toHex(contractAddress));
  const deployed =
    target?.kind === "trc20" ? state.contracts.has(target.token.hex) : state.accounts.get(toHex(contractAddress))?.type === "Contract";
  if (!target || !deployed) throw contractValidateError("No contract or not a valid smart contract");
  if (feeLimit < 0 || feeLimit > MAX_FEE_LIMIT_SUN) throw contractValidateError(`feeLimit must be >= 0 and <= ${MAX_FEE_LIMIT_SUN}`);
  return target;
}

/** The VM: validation, the energy limit from fee_limit and balance, then the contract's code. */
export function executeTrigger(
  chain: LedgerChain,
  state: LedgerState,
  contract: Extract<TransactionContract, { type: "TriggerSmartContract" }>,
  feeLimit: number,
  owner: AccountRecord,
  txId: Uint8Array,
): TriggerOutcome {
  const target = validateTrigger(chain, state, contract.value.contract_address, feeLimit);
  validateCallValue(chain, state, contract.value);
  // VMActuator.getAccountEnergyLimitWithFixRatio: the balance left after the call value pays for energy.
  const energyLimit = Math.min(
    Math.floor(feeLimit / ENERGY_FEE_SUN),
    Math.floor(Math.max(owner.balance - contract.value.call_value, 0) / ENERGY_FEE_SUN),
  );
  if (target.kind === "forwarder") return executeForwarderCall(chain, state, contract.value, target.forwarder, energyLimit, txId);
  return executeTrc20Call(chain, state, contract.value, target.token, energyLimit, owner);
}
