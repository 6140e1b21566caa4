/** Protobuf encoding of transactions exactly as java-tron (protobuf-java) and TronWeb (google-protobuf) produce it. */
import { tronTransactionId } from "@chaingate/tron";
import { ProtobufWriter } from "./protobuf-writer.ts";
import { CONTRACT_RESULTS, CONTRACT_TYPE_NUMBERS } from "./transaction.ts";
import type { Transaction, TransactionContract, TransactionRaw } from "./transaction.ts";

const TYPE_URL_PREFIX = "type.googleapis.com/protocol.";

/** Serialises the contract's parameter message (the bytes inside `Any.value`). */
export function encodeContractValue(contract: TransactionContract): Uint8Array {
  const writer = new ProtobufWriter();
  switch (contract.type) {
    case "TransferContract":
      return writer.bytes(1, contract.value.owner_address).bytes(2, contract.value.to_address).varint(3, contract.value.amount).finish();
    case "TransferAssetContract":
      return writer
        .bytes(1, contract.value.asset_name)
        .bytes(2, contract.value.owner_address)
        .bytes(3, contract.value.to_address)
        .varint(4, contract.value.amount)
        .finish();
    case "TriggerSmartContract":
      return writer
        .bytes(1, contract.value.owner_address)
        .bytes(2, contract.value.contract_address)
        .varint(3, contract.value.call_value)
        .bytes(4, contract.value.data)
        .varint(5, contract.value.call_token_value)
        .varint(6, contract.value.token_id)
        .finish();
  }
}

function encodeContract(contract: TransactionContract): Uint8Array {
  const any = new ProtobufWriter()
    .string(1, TYPE_URL_PREFIX + contract.type)
    .bytes(2, encodeContractValue(contract))
    .finish();
  return new ProtobufWriter().varint(1, CONTRACT_TYPE_NUMBERS[contract.type]).message(2, any).varint(5, contract.permissionId).finish();
}

/** Serialises `Transaction.raw` (the bytes behind `raw_data_hex`). */
export function encodeTransactionRaw(raw: TransactionRaw): Uint8Array {
  const writer = new ProtobufWriter()
    .bytes(1, raw.refBlockBytes)
    .varint(3, raw.refBlockNum)
    .bytes(4, raw.refBlockHash)
    .varint(8, raw.expiration)
    .bytes(10, raw.data);
  for (const contract of raw.contract) writer.message(11, encodeContract(contract));
  return writer.varint(14, raw.timestamp).varint(18, raw.feeLimit).finish();
}

/** txID: SHA-256 of the serialised raw data (signatures and results are not part of it). */
export function transactionId(raw: TransactionRaw): Uint8Array {
  return tronTransactionId(encodeTransactionRaw(raw));
}

/** Serialises the whole `Transaction` (raw, signatures, and `ret` when `withResult` and it is set). */
export function encodeTransaction(transaction: Transaction, withResult = true): Uint8Array {
  const writer = new ProtobufWriter().message(1, encodeTransactionRaw(transaction.raw));
  for (const signature of transaction.signatures) writer.bytes(2, signature);
  if (withResult && transaction.contractRet !== undefined) {
    const result = new ProtobufWriter().varint(3, CONTRACT_RESULTS.indexOf(transaction.contractRet)).finish();
    writer.message(5, result);
  }
  return writer.finish();
}
