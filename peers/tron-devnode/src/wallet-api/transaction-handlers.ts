/**
 * Transaction endpoints: the builders (createtransaction, transferasset), broadcasttransaction and the lookups
 * (gettransactionbyid, gettransactioninfobyid, gettransactioninfobyblocknum, gettransactionfrompending).
 */
import { transactionId } from "../encode-transaction.ts";
import { parseHash, toHex } from "../hex.ts";
import type { Ledger } from "../ledger.ts";
import { TransactionRejected } from "../ledger/transaction-rejected.ts";
import { printTransactionInfo } from "../print-chain-json.ts";
import { parseContractValue, parseInt64, parseTransactionJson, printTransaction, TransactionNotPacked } from "../transaction-json.ts";
import type { Transaction } from "../transaction.ts";
import { memo } from "./contract-params.ts";
import { errorBody, fromJavaError, JAVA_EXCEPTION, visibleText } from "./java-error.ts";
import type { WalletRequest } from "./wallet-request.ts";

/** `createtransaction` / `transferasset`: an unsigned transfer, validated like its actuator would. */
export function buildTransfer(ledger: Ledger, type: "TransferContract" | "TransferAssetContract", request: WalletRequest): unknown {
  try {
    const contract = parseContractValue(type, request.params, request.visible, parseInt64(request.params.Permission_id, "Permission_id"));
    ledger.validateForBuilder(contract, 0);
    const raw = ledger.builderRaw(contract, { memo: memo(request.params, request.visible) });
    return printTransaction({ raw, signatures: [] }, request.visible, true);
  } catch (error) {
    return fromJavaError(error, request);
  }
}

/** `broadcasttransaction`: `{result, txid}` or java-tron's response code and message. */
export function broadcastTransaction(ledger: Ledger, request: WalletRequest): unknown {
  let transaction: Transaction;
  try {
    transaction = parseTransactionJson(request.params, request.visible);
  } catch (error) {
    if (error instanceof TransactionNotPacked) return errorBody(JAVA_EXCEPTION.nullPointer, "null");
    return fromJavaError(error, request);
  }
  const txid = toHex(transactionId(transaction.raw));
  try {
    ledger.broadcast(transaction);
    return { result: true, txid };
  } catch (error) {
    if (!(error instanceof TransactionRejected)) throw error;
    const message = error.code === "CONTRACT_VALIDATE_ERROR" ? `Contract validate error : ${error.message}` : error.message;
    return { code: error.code, txid, message: visibleText(message, request.visible) };
  }
}

/** `gettransactionbyid`: a transaction in one of the view's blocks. */
export function getTransactionById(ledger: Ledger, request: WalletRequest): unknown {
  const id = parseHash(request.params.value);
  const entry = id ? ledger.view(request.solidity).executedTransaction(id) : undefined;
  return entry ? printTransaction(entry.transaction, request.visible) : {};
}

/** `gettransactioninfobyid`: fee, receipt and logs of a transaction in one of the view's blocks. */
export function getTransactionInfoById(ledger: Ledger, request: WalletRequest): unknown {
  const id = parseHash(request.params.value);
  const entry = id ? ledger.view(request.solidity).executedTransaction(id) : undefined;
  return entry ? printTransactionInfo(entry, request.visible) : {};
}

/** `gettransactioninfobyblocknum`: the infos of a block's transactions. */
export function getTransactionInfoByBlockNum(ledger: Ledger, request: WalletRequest): unknown {
  try {
    const number = parseInt64(request.params.num, "num");
    if (number <= 0) return {};
    // Wallet.getTransactionInfoByBlockNum: a block that does not exist (yet) is an empty list, not {}.
    const block = ledger.view(request.solidity).blockByNumber(number);
    return (block?.transactions ?? []).map((entry) => printTransactionInfo(entry, request.visible));
  } catch (error) {
    return fromJavaError(error, request);
  }
}

/** `gettransactionfrompending`: a transaction waiting for the next block (without its result). */
export function getTransactionFromPending(ledger: Ledger, request: WalletRequest): unknown {
  const id = parseHash(request.params.value);
  const entry = id ? ledger.pendingTransactions.find((candidate) => candidate.id === id) : undefined;
  return entry ? printTransaction({ ...entry.transaction, contractRet: undefined }, request.visible) : {};
}
