import {
  CREATE_ACCOUNT_FEE_SUN,
  FREE_NET_LIMIT_BYTES,
  MAX_RESULT_SIZE_IN_TX,
  NET_WINDOW_MS,
  TRANSACTION_FEE_SUN_PER_BYTE,
} from "../chain-parameters.ts";
import { encodeTransaction } from "../encode-transaction.ts";
import { toHex } from "../hex.ts";
import type { AccountRecord, LedgerState } from "../ledger-state.ts";
import type { Transaction, TransactionContract } from "../transaction.ts";
import { headBlock } from "./ledger-chain.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { TransactionRejected } from "./transaction-rejected.ts";

/** java-tron's BandwidthProcessor without staking: account creation fee, then free bandwidth, then burning TRX. */
export function consumeBandwidth(
  chain: LedgerChain,
  state: LedgerState,
  transaction: Transaction,
  contract: TransactionContract,
  owner: AccountRecord,
): { netUsage: number; netFee: number } {
  const bytes = encodeTransaction(transaction, false).length + MAX_RESULT_SIZE_IN_TX;
  const now = headBlock(chain).raw.timestamp;
  owner.latestOperationTime = now;
  const createsAccount = contract.type !== "TriggerSmartContract" && !state.accounts.has(toHex(contract.value.to_address));
  if (createsAccount) {
    if (owner.balance < CREATE_ACCOUNT_FEE_SUN) throw new TransactionRejected("BANDWITH_ERROR", "Account resource insufficient error.");
    owner.balance -= CREATE_ACCOUNT_FEE_SUN;
    return { netUsage: 0, netFee: CREATE_ACCOUNT_FEE_SUN };
  }
  const usage = recoveredUsage(owner.freeNetUsage, owner.latestConsumeFreeTime, now);
  if (bytes <= FREE_NET_LIMIT_BYTES - usage) {
    owner.freeNetUsage = usage + bytes;
    owner.latestConsumeFreeTime = now;
    return { netUsage: bytes, netFee: 0 };
  }
  const fee = bytes * TRANSACTION_FEE_SUN_PER_BYTE;
  if (owner.balance < fee) throw new TransactionRejected("BANDWITH_ERROR", "Account resource insufficient error.");
  owner.balance -= fee;
  return { netUsage: 0, netFee: fee };
}

function recoveredUsage(usage: number, lastTime: number, now: number): number {
  const elapsed = now - lastTime;
  if (elapsed >= NET_WINDOW_MS || usage === 0) return 0;
  return Math.ceil((usage * (NET_WINDOW_MS - Math.max(elapsed, 0))) / NET_WINDOW_MS);
}
