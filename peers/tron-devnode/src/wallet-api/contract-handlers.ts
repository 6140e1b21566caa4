/** Contract endpoints: triggerconstantcontract, triggersmartcontract, estimateenergy, getcontract, getcontractinfo. */
import { toHex } from "../hex.ts";
import type { Ledger } from "../ledger.ts";
import { devnodeRuntimeCode, printSmartContract } from "../print-chain-json.ts";
import { parseAddressField, parseInt64, printTransaction } from "../transaction-json.ts";
import { memo, triggerContract } from "./contract-params.ts";
import { triggerError, visibleText } from "./java-error.ts";
import type { WalletRequest } from "./wallet-request.ts";

function noContract(request: WalletRequest): unknown {
  return {
    result: {
      code: "CONTRACT_VALIDATE_ERROR",
      message: visibleText("No contract or not a valid smart contract", request.visible),
    },
  };
}

/** `triggerconstantcontract`: runs the call without committing it; its result, energy and the unsigned transaction. */
export function triggerConstantContract(ledger: Ledger, request: WalletRequest): unknown {
  try {
    const contract = triggerContract(request.params, request.visible);
    const result = ledger.callConstant(contract.value, request.solidity);
    if (result.kind === "noContract") return noContract(request);
    const raw = ledger.builderRaw(contract, { feeLimit: parseInt64(request.params.fee_limit, "fee_limit") });
    const execution = result.execution;
    const reverted = execution.status === "REVERT";
    const transaction = {
      ret: [reverted ? { ret: "FAILED" } : {}],
      ...printTransaction({ raw, signatures: [] }, request.visible, true),
    };
    return {
      result: reverted ? { result: true, message: visibleText("REVERT opcode executed", request.visible) } : { result: true },
      energy_used: execution.energyUsed,
      ...(execution.energyPenalty > 0 ? { energy_penalty: execution.energyPenalty } : {}),
      constant_result: [toHex(execution.returnData)],
      transaction,
    };
  } catch (error) {
    return triggerError(error, request);
  }
}

/** `triggersmartcontract`: the unsigned call transaction, validated like the VM would. */
export function triggerSmartContract(ledger: Ledger, request: WalletRequest): unknown {
  try {
    const contract = triggerContract(request.params, request.visible);
    const feeLimit = parseInt64(request.params.fee_limit, "fee_limit");
    ledger.validateForBuilder(contract, feeLimit);
    const raw = ledger.builderRaw(contract, { feeLimit, memo: memo(request.params, request.visible) });
    return { result: { result: true }, transaction: printTransaction({ raw, signatures: [] }, request.visible, true) };
  } catch (error) {
    return triggerError(error, request);
  }
}

/** `estimateenergy`: the energy a call would use. */
export function estimateEnergy(ledger: Ledger, request: WalletRequest): unknown {
  try {
    const result = ledger.callConstant(triggerContract(request.params, request.visible).value);
    if (result.kind === "noContract") return noContract(request);
    if (result.execution.status === "REVERT") {
      return { result: { result: true, message: visibleText("REVERT opcode executed", request.visible) } };
    }
    return { result: { result: true }, energy_required: result.execution.energyUsed };
  } catch (error) {
    return triggerError(error, request);
  }
}

/** `getcontract`: the contract's SmartContract (ABI, name, origin). */
export function getContract(ledger: Ledger, request: WalletRequest): unknown {
  const address = parseAddressField(request.params.value, request.visible, "value");
  const contract = address ? ledger.contract(toHex(address)) : undefined;
  return contract ? printSmartContract(contract, request.visible) : {};
}

/** `getcontractinfo`: the SmartContract, its runtime code and its dynamic-energy state. */
export function getContractInfo(ledger: Ledger, request: WalletRequest): unknown {
  const address = parseAddressField(request.params.value, request.visible, "value");
  const contract = address ? ledger.contract(toHex(address)) : undefined;
  if (!contract) return {};
  // The dynamic energy factor applies to the tokens only (the "popular" contracts).
  const factor = contract.kind === "trc20" ? ledger.energyCosts.energyFactor : 0;
  return {
    smart_contract: printSmartContract(contract, request.visible),
    runtimecode: devnodeRuntimeCode(contract),
    contract_state: factor > 0 ? { energy_factor: factor } : {},
  };
}
