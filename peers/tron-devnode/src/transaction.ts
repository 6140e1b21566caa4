/** The in-memory model of a Tron `Transaction` for the three contract types the devnode executes. */

/** `Transaction.Contract.ContractType` numbers [Tron.proto]. */
export const CONTRACT_TYPE_NUMBERS = {
  TransferContract: 1,
  TransferAssetContract: 2,
  TriggerSmartContract: 31,
} as const;

/** Names of the contract types the devnode supports. */
export type ContractTypeName = keyof typeof CONTRACT_TYPE_NUMBERS;

/** `protocol.TransferContract` (TRX transfer, amounts in sun). */
export interface TransferContractValue {
  owner_address: Uint8Array;
  to_address: Uint8Array;
  amount: number;
}

/** `protocol.TransferAssetContract` (TRC-10 transfer; `asset_name` is the UTF-8 of the numeric token id). */
export interface TransferAssetContractValue {
  asset_name: Uint8Array;
  owner_address: Uint8Array;
  to_address: Uint8Array;
  amount: number;
}

/** `protocol.TriggerSmartContract` (a TVM call; `data` is selector ‖ ABI arguments). */
export interface TriggerSmartContractValue {
  owner_address: Uint8Array;
  contract_address: Uint8Array;
  call_value: number;
  data: Uint8Array;
  call_token_value: number;
  token_id: number;
}

/** One `Transaction.Contract` entry. */
export type TransactionContract =
  | { type: "TransferContract"; value: TransferContractValue; permissionId: number }
  | { type: "TransferAssetContract"; value: TransferAssetContractValue; permissionId: number }
  | { type: "TriggerSmartContract"; value: TriggerSmartContractValue; permissionId: number };

/** `Transaction.raw`; int64 fields are JS numbers (the devnode refuses values beyond 2^53). */
export interface TransactionRaw {
  refBlockBytes: Uint8Array;
  refBlockNum: number;
  refBlockHash: Uint8Array;
  expiration: number;
  /** The memo (`raw_data.data`). */
  data: Uint8Array;
  contract: TransactionContract[];
  timestamp: number;
  feeLimit: number;
}

/** `Transaction.Result.contractResult` values [Tron.proto], in enum order. */
export const CONTRACT_RESULTS = [
  "DEFAULT",
  "SUCCESS",
  "REVERT",
  "BAD_JUMP_DESTINATION",
  "OUT_OF_MEMORY",
  "PRECOMPILED_CONTRACT",
  "STACK_TOO_SMALL",
  "STACK_TOO_LARGE",
  "ILLEGAL_OPERATION",
  "STACK_OVERFLOW",
  "OUT_OF_ENERGY",
  "OUT_OF_TIME",
  "JVM_STACK_OVER_FLOW",
  "UNKNOWN",
  "TRANSFER_FAILED",
  "INVALID_CODE",
] as const;

/** A `contractResult` name. */
export type ContractResult = (typeof CONTRACT_RESULTS)[number];

/** A full transaction: raw data, signatures and (once in a block) its result. */
export interface Transaction {
  raw: TransactionRaw;
  signatures: Uint8Array[];
  /** `ret[0].contractRet`, set when the transaction is in a block. */
  contractRet?: ContractResult;
}
