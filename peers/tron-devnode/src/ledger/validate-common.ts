import { MAX_RESULT_SIZE_IN_TX, MAXIMUM_TIME_UNTIL_EXPIRATION_MS, TRANSACTION_MAX_BYTE_SIZE } from "../chain-parameters.ts";
import { encodeTransaction, transactionId } from "../encode-transaction.ts";
import { toHex } from "../hex.ts";
import type { Transaction } from "../transaction.ts";
import { headBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { TransactionRejected } from "./transaction-rejected.ts";

/** java-tron's `Manager.validateCommon`: the size (with its results) and the expiration window after the head block. */
export function validateCommon(chain: LedgerChain, transaction: Transaction): void {
  const size = encodeTransaction(transaction, false).length;
  if (size + 2 * MAX_RESULT_SIZE_IN_TX > TRANSACTION_MAX_BYTE_SIZE) {
    throw new TransactionRejected(
      "TOO_BIG_TRANSACTION_ERROR",
      `Too big transaction with result, TxId ${toHex(transactionId(transaction.raw))}, the size is ${size + 2 * MAX_RESULT_SIZE_IN_TX} bytes, maxTxSize ${TRANSACTION_MAX_BYTE_SIZE}`,
    );
  }
  const headTime = headBlock(chain).raw.timestamp;
  const expiration = transaction.raw.expiration;
  if (expiration <= headTime || expiration > headTime + MAXIMUM_TIME_UNTIL_EXPIRATION_MS) {
    throw new TransactionRejected("TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
  }
}
