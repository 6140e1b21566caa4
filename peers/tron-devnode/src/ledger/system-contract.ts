/** The system contracts the devnode runs: TRX transfers (TransferActuator) and TRC-10 transfers (TransferAssetActuator). */
import { addressToBase58, isValidAddress } from "../address.ts";
import { CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN } from "../chain-parameters.ts";
import { bytesEqual, toHex } from "../hex.ts";
import type { AccountRecord, LedgerState } from "../ledger-state.ts";
import type { TransactionContract } from "../transaction.ts";
import { headBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { TransactionRejected, contractValidateError } from "./transaction-rejected.ts";

/** A contract that is not a smart-contract call: TransferContract or TransferAssetContract. */
export type SystemContract = Exclude<TransactionContract, { type: "TriggerSmartContract" }>;

/** TransferActuator / TransferAssetActuator validation; returns the actuator fee (account creation). */
export function validateSystemContract(chain: LedgerChain, state: LedgerState, contract: SystemContract): number {
  const { owner_address: owner, to_address: to, amount } = contract.value;
  const ownerAccount = state.accounts.get(toHex(owner));
  const toAccount = state.accounts.get(toHex(to));
  if (contract.type === "TransferContract") {
    if (!isValidAddress(owner)) throw contractValidateError("Invalid ownerAddress!");
    if (!isValidAddress(to)) throw contractValidateError("Invalid toAddress!");
    if (bytesEqual(owner, to)) throw contractValidateError("Cannot transfer TRX to yourself.");
    if (!ownerAccount) throw contractValidateError("Validate TransferContract error, no OwnerAccount.");
    if (amount <= 0) throw contractValidateError("Amount must be greater than 0.");
    const fee = toAccount ? 0 : CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN;
    if (toAccount?.type === "Contract") throw contractValidateError("Cannot transfer TRX to a smartContract.");
    if (ownerAccount.balance < amount + fee || !Number.isSafeInteger(amount + fee)) {
      throw contractValidateError("Validate TransferContract error, balance is not sufficient.");
    }
    if (toAccount && !Number.isSafeInteger(toAccount.balance + amount)) throw contractValidateError("long overflow");
    return fee;
  }
  if (!isValidAddress(owner)) throw contractValidateError("Invalid ownerAddress");
  if (!isValidAddress(to)) throw contractValidateError("Invalid toAddress");
  if (amount <= 0) throw contractValidateError("Amount must be greater than 0.");
  if (bytesEqual(owner, to)) throw contractValidateError("Cannot transfer asset to yourself.");
  if (!ownerAccount) throw contractValidateError("No owner account!");
  const tokenId = new TextDecoder().decode(contract.value.asset_name);
  if (!chain.genesis.trc10.some((token) => token.id === tokenId)) throw contractValidateError("No asset!");
  const assetBalance = ownerAccount.assets.get(tokenId) ?? 0;
  if (assetBalance <= 0) throw contractValidateError("assetBalance must be greater than 0.");
  if (amount > assetBalance) throw contractValidateError("assetBalance is not sufficient.");
  if (toAccount?.type === "Contract") throw contractValidateError("Cannot transfer asset to smartContract.");
  if (toAccount && !Number.isSafeInteger((toAccount.assets.get(tokenId) ?? 0) + amount)) throw contractValidateError("long overflow");
  return toAccount ? 0 : CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN;
}

/** Charges the actuator fee and moves the TRX or TRC-10 amount, creating the recipient's account if needed. */
export function executeSystemContract(chain: LedgerChain, state: LedgerState, contract: SystemContract, fee: number): void {
  const now = headBlock(chain).raw.timestamp;
  const ownerAccount = state.accounts.get(toHex(contract.value.owner_address)) as AccountRecord;
  const toHexAddress = toHex(contract.value.to_address);
  const toAccount = state.accounts.get(toHexAddress) ?? state.createAccount(toHexAddress, now);
  if (ownerAccount.balance < fee) {
    throw new TransactionRejected(
      "CONTRACT_EXE_ERROR",
      `Contract execute error : ${addressToBase58(contract.value.owner_address)} insufficient balance, balance: ${ownerAccount.balance}, amount: ${fee}`,
    );
  }
  ownerAccount.balance -= fee;
  if (contract.type === "TransferContract") {
    ownerAccount.balance -= contract.value.amount;
    toAccount.balance += contract.value.amount;
    return;
  }
  const tokenId = new TextDecoder().decode(contract.value.asset_name);
  ownerAccount.assets.set(tokenId, (ownerAccount.assets.get(tokenId) ?? 0) - contract.value.amount);
  toAccount.assets.set(tokenId, (toAccount.assets.get(tokenId) ?? 0) + contract.value.amount);
}
