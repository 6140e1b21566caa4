import { computeTxTrieRoot } from "../block.ts";
import { LedgerState } from "../ledger-state.ts";
import type { LedgerChain } from "./ledger-chain.ts";
import { sealBlock } from "./seal-block.ts";

/** Builds the genesis state (accounts, TRC-10 balances, the forwarder, the TRC-20 contracts) and seals block 0. */
export function loadGenesis(chain: LedgerChain): void {
  const genesis = chain.genesis;
  const time = genesis.timestamp;
  const state = new LedgerState();
  for (const account of genesis.accounts) {
    const record = state.createAccount(account.hex, time);
    record.balance = account.balanceSun;
    for (const [tokenId, amount] of Object.entries(account.trc10)) record.assets.set(tokenId, amount);
  }
  if (!state.accounts.has(genesis.witness.hex)) state.createAccount(genesis.witness.hex, time);
  state.createAccount(genesis.forwarder.hex, time).type = "Contract";
  for (const token of genesis.trc20) {
    chain.tokensByAddress.set(token.hex, token);
    const contractAccount = state.createAccount(token.hex, time);
    contractAccount.type = "Contract";
    const storage = { balances: new Map<string, bigint>(), allowances: new Map<string, bigint>() };
    for (const account of genesis.accounts) {
      const amount = account.trc20[token.base58];
      if (amount !== undefined) storage.balances.set(account.hex, BigInt(amount));
    }
    state.contracts.set(token.hex, storage);
  }
  sealBlock(chain, 0, time, new Uint8Array(32), computeTxTrieRoot([]), [], state);
  chain.pendingState = state.clone();
}
