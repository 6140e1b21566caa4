/**
 * Decides the outcome of announced transfers whose transaction is no longer in the mempool: back in
 * it (nothing), "replaced" (a new mempool transaction spends what it spent), mined (no event: the
 * follower's "transfer" is the outcome), "double_spent" (a mined transaction spent it), or
 * "dropped" once it has been missing `dropAfterMs` without either. An outcome is published only to
 * a webhook that still has `pending` on and still watches the address.
 */
import { outcomeEvent, type MempoolOutcome } from "./mempool-event.ts";
import type { OpenMempoolTransfer } from "./mempool-ports.ts";
import { untrack, type MempoolState } from "./mempool-state.ts";
import { DEFAULT_MEMPOOL_DROP_AFTER_MS, type WatchMempoolOptions } from "./watch-mempool-options.ts";

type Decision = { outcome: "mined" } | { outcome: MempoolOutcome; conflictingTxid: string | null };

export async function resolveLeftTransfers<Tx>(
  options: WatchMempoolOptions<Tx>,
  state: MempoolState,
  current: ReadonlySet<string>,
  /** Only these transactions (default: every open one). */
  only?: ReadonlySet<string>,
): Promise<void> {
  const { source, store } = options;
  const now = (options.now ?? Date.now)();
  const dropAfterMs = options.dropAfterMs ?? DEFAULT_MEMPOOL_DROP_AFTER_MS;
  for (const [txid, rows] of [...state.open]) {
    if (only && !only.has(txid)) continue;
    const first = rows[0]!;
    if (current.has(txid)) {
      if (first.leftAtMs !== null) await setLeft(options, rows, null);
      continue;
    }
    if (first.leftAtMs === null) await setLeft(options, rows, now);
    const decision = await decide(options, txid, first, state.replacedBy.get(txid), now - first.leftAtMs! >= dropAfterMs);
    if (!decision) continue;
    for (const row of rows) {
      const webhookId = row.event.webhook_id;
      const stillWanted =
        options.index.settings(webhookId)?.pending === true && options.index.watches(webhookId, row.event.watched_address);
      if (decision.outcome !== "mined" && stillWanted)
        await options.publish(outcomeEvent(row.event, decision.outcome, decision.conflictingTxid));
      await store.decide(source.coin, row, decision.outcome, now);
    }
    untrack(state, txid);
  }
}

async function setLeft<Tx>(options: WatchMempoolOptions<Tx>, rows: OpenMempoolTransfer[], atMs: number | null): Promise<void> {
  await options.store.markLeft(options.source.coin, rows, atMs);
  for (const row of rows) row.leftAtMs = atMs;
}

async function decide<Tx>(
  options: WatchMempoolOptions<Tx>,
  txid: string,
  transfer: OpenMempoolTransfer,
  replacement: string | undefined,
  overdue: boolean,
): Promise<Decision | undefined> {
  const { source } = options;
  if (replacement !== undefined) return { outcome: "replaced", conflictingTxid: replacement };
  if (await source.isMined(txid, transfer.event.position)) return { outcome: "mined" };
  const conflict = await source.minedConflict(transfer.spends);
  // Its own output spent already in a later block: found as the spender of its inputs, so mined.
  if (conflict === txid) return { outcome: "mined" };
  if (conflict !== undefined && conflict !== null) return { outcome: source.mined, conflictingTxid: conflict };
  if (!overdue) return undefined;
  if (conflict === undefined) return { outcome: "dropped", conflictingTxid: null };
  // Spent by a transaction no longer in the recent blocks: mined if the follower matched it, else spent by another.
  const matched = await options.store.matchedInBlocks(source.coin, [txid]);
  return matched.has(txid) ? { outcome: "mined" } : { outcome: source.mined, conflictingTxid: null };
}
