/** What the mempool watcher needs from the node and from its own storage; adapters live in `infra/`. */
import type { Coin } from "@chaingate/contracts";
import type { Match } from "../transfer.ts";
import type { WatchIndex } from "../watch-index.ts";
import type { MempoolDetails, MempoolEvent } from "./mempool-event.ts";

/** One chain's mempool, as the watcher reads it. */
export interface MempoolSource<Tx> {
  coin: Coin;
  /** What a conflicting transaction that was mined makes of a pending one: BTC "double_spent", ETH "replaced" (its nonce used). */
  mined: "double_spent" | "replaced";
  /** Every txid in the node's mempool now. */
  txids(): Promise<string[]>;
  /** These transactions, null for one that left the mempool meanwhile. */
  transactions(txids: readonly string[]): Promise<Array<Tx | null>>;
  txid(tx: Tx): string;
  /** The index keys it pays (and, where the chain matches senders, spends from): kept per mempool transaction. */
  keys(tx: Tx): string[];
  /** What it spends, as conflict keys: outpoints "txid:n" (BTC). Two transactions sharing one conflict. */
  spends(tx: Tx): string[];
  /** The transfers of these transactions that webhooks watch (the chain's block matcher over them). */
  match(txs: readonly Tx[], index: WatchIndex): Match[];
  /** Replaceability and fee rate; null when it left the mempool meanwhile. */
  details(txid: string): Promise<MempoolDetails | null>;
  /** Whether the transaction is in a block of the node's best chain. */
  isMined(txid: string, position: number | null): Promise<boolean>;
  /**
   * Whether a mined transaction consumed one of `spends`: undefined when none did; otherwise the
   * conflicting transaction's txid, or null when it could not be found in the recent blocks.
   */
  minedConflict(spends: readonly string[]): Promise<string | null | undefined>;
}

/** An announced pending transfer whose outcome is not decided yet. */
export interface OpenMempoolTransfer {
  /** transferKey of its match. */
  key: string;
  generation: number;
  event: MempoolEvent;
  spends: string[];
  /** When it was first found missing from the mempool (scanner clock); null while it is there. */
  leftAtMs: number | null;
}

export type DecidedOutcome = "mined" | MempoolEvent["type"];

export interface MempoolStore {
  /** Announced transfers of `coin` without an outcome. */
  open(coin: Coin): Promise<OpenMempoolTransfer[]>;
  /** Of these txids, the ones the follower holds a match for in a kept block (announced or not). */
  matchedInBlocks(coin: Coin, txids: readonly string[]): Promise<Set<string>>;
  /** Of these transfers ("key:generation"), the ones announced before, with their outcome (null: open). */
  announced(coin: Coin, ids: ReadonlyArray<{ key: string; generation: number }>): Promise<Map<string, string | null>>;
  /** Records announced transfers (again open, with their new event, when one was decided "mined" and its block left the chain). */
  record(coin: Coin, transfers: readonly OpenMempoolTransfer[]): Promise<void>;
  /** Sets (a time) or clears (null) when these transfers left the mempool. */
  markLeft(coin: Coin, transfers: ReadonlyArray<{ key: string; generation: number }>, atMs: number | null): Promise<void>;
  decide(coin: Coin, transfer: { key: string; generation: number }, outcome: DecidedOutcome, atMs: number): Promise<void>;
  /** Forgets transfers decided before `beforeMs`. */
  prune(coin: Coin, beforeMs: number): Promise<void>;
}
