/** The mempool watcher's memory between polls, and how announced transfers enter and leave it. */
import type { OpenMempoolTransfer } from "./mempool-ports.ts";

/** The watcher's memory between polls. */
export interface MempoolState {
  /** The mempool at the last poll: each txid with the index keys its transaction pays (and, where the chain has them, spends from), space-separated. */
  seen: Map<string, string>;
  /** WatchIndex.changes when the mempool was last matched whole. */
  indexChanges: number;
  /** Announced transfers without an outcome, by txid. */
  open: Map<string, OpenMempoolTransfer[]>;
  /** What the open transactions spend → their txid. */
  bySpend: Map<string, string>;
  /** An open transaction → the mempool transaction seen spending what it spent (its replacement once it is gone). */
  replacedBy: Map<string, string>;
}

export function emptyMempoolState(): MempoolState {
  return { seen: new Map(), indexChanges: -1, open: new Map(), bySpend: new Map(), replacedBy: new Map() };
}

export function trackOpen(state: MempoolState, transfer: OpenMempoolTransfer): void {
  const txid = transfer.event.txid;
  const rows = state.open.get(txid);
  if (rows) {
    if (!rows.some((row) => row.key === transfer.key && row.generation === transfer.generation)) rows.push(transfer);
  } else state.open.set(txid, [transfer]);
  for (const spend of transfer.spends) state.bySpend.set(spend, txid);
}

export function untrack(state: MempoolState, txid: string): void {
  for (const spend of state.open.get(txid)?.[0]?.spends ?? []) {
    if (state.bySpend.get(spend) === txid) state.bySpend.delete(spend);
  }
  state.open.delete(txid);
  state.replacedBy.delete(txid);
}
