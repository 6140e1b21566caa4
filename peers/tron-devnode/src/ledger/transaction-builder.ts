/** What the node's transaction builders (createtransaction, transferasset, triggersmartcontract) do with the ledger. */
import { BUILDER_EXPIRATION_MS } from "../chain-parameters.ts";
import type { TransactionContract, TransactionRaw } from "../transaction.ts";
import { validateTrigger } from "./execute-trigger.ts";
import { headBlock, solidBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { validateSystemContract } from "./system-contract.ts";
import { REF_BLOCK_BYTES_RANGE, REF_BLOCK_HASH_RANGE } from "./validate-tapos.ts";

/** Runs the actuator's validation only (what the node's transaction builders do); throws CONTRACT_VALIDATE_ERROR. */
export function validateForBuilder(chain: LedgerChain, contract: TransactionContract, feeLimit: number): void {
  const state = chain.pendingState.clone();
  if (contract.type === "TriggerSmartContract") validateTrigger(chain, state, contract.value.contract_address, feeLimit);
  else validateSystemContract(chain, state, contract);
}

/** Raw data as the node's builders produce it: referencing the solid block, expiring 60 s after the head block. */
export function builderRaw(
  chain: LedgerChain,
  contract: TransactionContract,
  options: { feeLimit?: number; memo?: Uint8Array } = {},
): TransactionRaw {
  const reference = solidBlock(chain);
  const numberBytes = new Uint8Array(8);
  new DataView(numberBytes.buffer).setBigUint64(0, BigInt(reference.raw.number));
  return {
    refBlockBytes: numberBytes.subarray(...REF_BLOCK_BYTES_RANGE),
    refBlockNum: 0,
    refBlockHash: reference.id.subarray(...REF_BLOCK_HASH_RANGE),
    expiration: headBlock(chain).raw.timestamp + BUILDER_EXPIRATION_MS,
    data: options.memo ?? new Uint8Array(),
    contract: [contract],
    timestamp: chain.now(),
    feeLimit: options.feeLimit ?? 0,
  };
}
