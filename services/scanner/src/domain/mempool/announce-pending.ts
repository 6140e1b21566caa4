/**
 * Announces the watched transfers of transactions new to the mempool as "pending", for webhooks
 * with `pending` on, each transfer once per generation. Decided under the chain's lock: a
 * transaction the follower holds in a kept block (published or waiting for depth) is not pending,
 * whichever saw it first.
 */
import { transferKey } from "../transfer-event.ts";
import { pendingEvent, type MempoolDetails } from "./mempool-event.ts";
import type { OpenMempoolTransfer } from "./mempool-ports.ts";
import { trackOpen, type MempoolState } from "./mempool-state.ts";
import type { WatchMempoolOptions } from "./watch-mempool-options.ts";

export async function announcePending<Tx>(options: WatchMempoolOptions<Tx>, state: MempoolState, txs: readonly Tx[]): Promise<void> {
  const { source, index, store } = options;
  const coin = source.coin;
  const matches = source.match(txs, index).filter((match) => index.settings(match.webhookId)?.pending === true);
  if (!matches.length) return;
  const spendsOf = new Map<string, string[]>();
  for (const tx of txs) spendsOf.set(source.txid(tx), source.spends(tx));
  await options.lock(async () => {
    const inBlocks = await store.matchedInBlocks(coin, [...new Set(matches.map((match) => match.transfer.txid))]);
    const candidates = matches.filter((match) => !inBlocks.has(match.transfer.txid));
    const keys = candidates.map(transferKey);
    const generations = await options.generations(coin, keys);
    const ids = keys.map((key) => ({ key, generation: generations.get(key) ?? 0 }));
    const announced = await store.announced(coin, ids);
    const details = new Map<string, MempoolDetails | null>();
    const recorded: OpenMempoolTransfer[] = [];
    for (const [i, match] of candidates.entries()) {
      const id = ids[i]!;
      const before = announced.get(`${id.key}:${id.generation}`);
      // Announced already: open (a restart, or back in the mempool before its outcome) or decided.
      // Decided "mined" and back in the mempool: its block left the chain; it is open again.
      if (before !== undefined && before !== "mined") continue;
      const txid = match.transfer.txid;
      if (!details.has(txid)) details.set(txid, await source.details(txid));
      const detail = details.get(txid);
      // Gone already (mined or replaced within the poll): as if first seen in a block.
      if (!detail) continue;
      const event = pendingEvent(match, detail, (options.now ?? Date.now)(), id.generation);
      if (before === undefined) await options.publish(event);
      recorded.push({ ...id, event, spends: spendsOf.get(txid) ?? [], leftAtMs: null });
    }
    await store.record(coin, recorded);
    for (const transfer of recorded) trackOpen(state, transfer);
  });
}
