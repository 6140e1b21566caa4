/** The mutable world state: accounts (TRX, TRC-10) and TRC-20 contract storage. Cloned for pending/confirmed views. */

/** One account, as java-tron's AccountStore holds it (only the fields the devnode uses). */
export interface AccountRecord {
  /** 21-byte address, hex. */
  address: string;
  type: "Normal" | "Contract";
  balance: number;
  createTime: number;
  latestOperationTime: number;
  freeNetUsage: number;
  latestConsumeFreeTime: number;
  /** TRC-10 balances by token id. */
  assets: Map<string, number>;
}

/** Storage of one TRC-20 contract. */
export interface Trc20Storage {
  /** Holder (21-byte hex) → balance. */
  balances: Map<string, bigint>;
  /** `${owner}:${spender}` (21-byte hex each) → allowance. */
  allowances: Map<string, bigint>;
}

/** A snapshot of the chain state that can be copied cheaply (the devnode holds few accounts). */
export class LedgerState {
  readonly accounts = new Map<string, AccountRecord>();
  readonly contracts = new Map<string, Trc20Storage>();

  /** A deep copy. */
  clone(): LedgerState {
    const copy = new LedgerState();
    for (const [key, account] of this.accounts) copy.accounts.set(key, { ...account, assets: new Map(account.assets) });
    for (const [key, storage] of this.contracts) {
      copy.contracts.set(key, { balances: new Map(storage.balances), allowances: new Map(storage.allowances) });
    }
    return copy;
  }

  /** Takes over every account and contract storage of `scratch`, a clone of this state that a call changed: commits it. */
  commit(scratch: LedgerState): void {
    for (const [key, account] of scratch.accounts) this.accounts.set(key, account);
    for (const [key, storage] of scratch.contracts) this.contracts.set(key, storage);
  }

  /** Creates a normal account (as a transfer to a new address does). */
  createAccount(address: string, time: number): AccountRecord {
    const account: AccountRecord = {
      address,
      type: "Normal",
      balance: 0,
      createTime: time,
      latestOperationTime: 0,
      freeNetUsage: 0,
      latestConsumeFreeTime: 0,
      assets: new Map(),
    };
    this.accounts.set(address, account);
    return account;
  }
}
