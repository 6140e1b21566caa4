import { addressToBase58 } from "../address.ts";
import { bytesEqual, toHex } from "../hex.ts";
import { recoverSigner } from "../sign-transaction.ts";
import type { Transaction, TransactionContract } from "../transaction.ts";
import { TransactionRejected } from "./transaction-rejected.ts";

const SIGNATURE_LENGTH = 65;
const OWNER_PERMISSION_ID = 0;
const ACTIVE_PERMISSION_ID = 2;

/** A plain account's owner and active permissions both hold its own key with weight 1, threshold 1. */
export function validateSignature(transaction: Transaction, txId: Uint8Array, contract: TransactionContract): void {
  const fail = (message: string): TransactionRejected => new TransactionRejected("SIGERROR", `Validate signature error: ${message}`);
  if (transaction.signatures.length === 0) throw fail("miss sig or contract");
  if (contract.permissionId !== OWNER_PERMISSION_ID && contract.permissionId !== ACTIVE_PERMISSION_ID) throw fail("permission isn't exit");
  const keyCount = 1;
  if (transaction.signatures.length > keyCount) {
    throw fail(`Signature count is ${transaction.signatures.length} more than key counts of permission : ${keyCount}`);
  }
  const owner = contract.value.owner_address;
  for (const signature of transaction.signatures) {
    if (signature.length < SIGNATURE_LENGTH) throw fail(`Signature size is ${signature.length}`);
    const signer = recoverSigner(txId, signature);
    if (!signer) throw fail("sig error");
    if (!bytesEqual(signer, owner)) {
      throw fail(`${toHex(signature)} is signed by ${addressToBase58(signer)} but it is not contained of permission.`);
    }
  }
}
