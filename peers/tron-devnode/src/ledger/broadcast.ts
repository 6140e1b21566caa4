import { transactionId } from "../encode-transaction.ts";
import { toHex } from "../hex.ts";
import type { Transaction } from "../transaction.ts";
import type { ExecutedTransaction } from "./executed-transaction.ts";
import { executeTransaction } from "./execute-transaction.ts";
import { headBlock, isPending } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { TransactionRejected, contractValidateError } from "./transaction-rejected.ts";
import { validateCommon } from "./validate-common.ts";
import { validateSignature } from "./validate-signature.ts";
import { validateTapos } from "./validate-tapos.ts";

/** Slot length used for the next-slot expiration check, as on mainnet. */
export const BLOCK_SLOT_MS = 3_000;

/**
 * Validates, charges and executes a signed transaction on the pending state, like java-tron's
 * `Wallet.broadcastTransaction`; throws {@link TransactionRejected} with java-tron's code and message.
 */
export function broadcast(chain: LedgerChain, transaction: Transaction): ExecutedTransaction {
  const raw = transaction.raw;
  const txId = transactionId(raw);
  const id = toHex(txId);
  // Wallet.broadcastTransaction: no contract, then expiration against the next slot.
  const contract = raw.contract[0];
  if (!contract) throw contractValidateError("No contract!");
  if (raw.expiration < headBlock(chain).raw.timestamp + BLOCK_SLOT_MS) {
    throw new TransactionRejected("TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
  }
  // Manager.pushTransaction checks the signature (of contract 0's owner) first, then processTransaction
  // checks the contract count, TAPOS, size and expiration window, duplicates, and runs the actuator.
  validateSignature(transaction, txId, contract);
  if (raw.contract.length !== 1) {
    throw contractValidateError(`tx ${id} contract size should be exactly 1, this is extend feature ,actual :${raw.contract.length}`);
  }
  validateTapos(chain, raw);
  validateCommon(chain, transaction);
  if (chain.executedById.has(id) || isPending(chain, id)) throw new TransactionRejected("DUP_TRANSACTION_ERROR", "Dup transaction.");

  const draft = chain.pendingState.clone();
  const executed = executeTransaction(chain, draft, transaction, contract, id);
  chain.pendingState = draft;
  chain.pending.push(executed);
  return executed;
}
