/** The value a TriggerSmartContract sends its contract (TRX and TRC-10): its validation and its transfer. */
import { toHex } from "../hex.ts";
import type { LedgerState } from "../ledger-state.ts";
import type { TriggerSmartContractValue } from "../transaction.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { contractValidateError } from "./transaction-rejected.ts";

/** TRC-10 ids are above this (VMConstant.MIN_TOKEN_ID); a call's token_id is 0 or above it. */
const MIN_TOKEN_ID = 1_000_000;

/** What a TriggerSmartContract sends its contract. */
export type CallValue = Pick<TriggerSmartContractValue, "owner_address" | "call_value" | "call_token_value" | "token_id">;

/** What the caller sends along: VMActuator's `checkTokenValueAndId`, then MUtil.transfer/transferToken's validation. */
export function validateCallValue(chain: LedgerChain, state: LedgerState, value: CallValue): void {
  const { call_value: callValue, call_token_value: tokenValue, token_id: tokenId } = value;
  if (tokenId !== 0 && tokenId <= MIN_TOKEN_ID) throw contractValidateError(`tokenId must be > ${MIN_TOKEN_ID}`);
  if (tokenValue > 0 && tokenId === 0)
    throw contractValidateError(`invalid arguments with tokenValue = ${tokenValue}, tokenId = ${tokenId}`);
  // Negative values would move value backwards; java-tron's transfers refuse them (the wording here is the devnode's).
  if (callValue < 0 || tokenValue < 0) throw contractValidateError("Amount must greater than 0.");
  const owner = state.accounts.get(toHex(value.owner_address));
  if (!owner || owner.balance < callValue) throw contractValidateError("Validate InternalTransfer error, balance is not sufficient.");
  if (tokenValue === 0) return;
  const id = String(tokenId);
  if (!chain.genesis.trc10.some((token) => token.id === id)) throw contractValidateError("No asset !");
  const assetBalance = owner.assets.get(id) ?? 0;
  if (assetBalance <= 0) throw contractValidateError("assetBalance must greater than 0.");
  if (tokenValue > assetBalance) throw contractValidateError("assetBalance is not sufficient.");
}

/** VMActuator moves the call value and token value into the contract before its code runs. */
export function moveCallValue(state: LedgerState, value: CallValue, contractHex: string): void {
  const owner = state.accounts.get(toHex(value.owner_address));
  const contract = state.accounts.get(contractHex);
  if (!owner || !contract) return;
  owner.balance -= value.call_value;
  contract.balance += value.call_value;
  if (value.call_token_value === 0) return;
  const id = String(value.token_id);
  owner.assets.set(id, (owner.assets.get(id) ?? 0) - value.call_token_value);
  contract.assets.set(id, (contract.assets.get(id) ?? 0) + value.call_token_value);
}
