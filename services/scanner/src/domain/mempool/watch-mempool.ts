/**
 * Follows one chain's mempool for webhooks with `pending` on (issue #29). Each poll diffs the node's
 * mempool against the previous one: new transactions are matched like a block's (the chain's own
 * matcher) and announced as "pending"; an announced one that left is resolved to exactly one
 * outcome: mined (the follower's "transfer" says it), "replaced" (a new mempool transaction spends
 * what it spent), "double_spent" (a mined one did), or "dropped" after `dropAfterMs` without either.
 * Memory is the mempool's txids, each with the addresses it pays (so an address watched later is
 * matched again without reading every transaction), and the announced transfers still open.
 */
import { announcePending } from "./announce-pending.ts";
import type { MempoolSource } from "./mempool-ports.ts";
import { emptyMempoolState, trackOpen, type MempoolState } from "./mempool-state.ts";
import { resolveLeftTransfers } from "./resolve-left-transfers.ts";
import { DEFAULT_MEMPOOL_POLL_MS, type WatchMempoolOptions } from "./watch-mempool-options.ts";

/** Transactions read, matched and announced at once in a poll. */
const READ_CHUNK = 100;
/** Decided transfers are kept this long (a restart in that time does not announce them again). */
const DECIDED_KEPT_MS = 86_400_000;
/**
 * While no webhook wants pending events the watcher looks again this often (reading nothing):
 * a webhook that turns `pending` on does not wake it, and its transfers must not wait a whole poll.
 */
const IDLE_CHECK_MS = 1_000;

/** Polls until `signal` aborts; a failed poll is logged and tried again at the next. */
export async function watchMempool<Tx>(options: WatchMempoolOptions<Tx>): Promise<void> {
  const { source, store, signal, logger } = options;
  const pollMs = options.pollIntervalMs ?? DEFAULT_MEMPOOL_POLL_MS;
  const now = options.now ?? Date.now;
  const state = emptyMempoolState();
  let lastFullMs = Number.NEGATIVE_INFINITY;
  let failingSinceMs: number | undefined;
  let lastWarnMs = 0;
  let loaded = false;
  let lastPrune = 0;
  let idle = false;
  while (!signal.aborted) {
    try {
      if (!loaded) {
        for (const transfer of await store.open(source.coin)) trackOpen(state, transfer);
        loaded = true;
      }
      // Nothing is read while no webhook wants it (the first poll after that sees the whole mempool as new).
      const hinted = options.hints?.() ?? [];
      idle = !options.index.wantsPending(source.coin) && !state.open.size;
      if (idle) state.seen.clear();
      // Announced transactions alone are read between whole diffs; outcomes wait for the next diff.
      else if (hinted.length && now() - lastFullMs < pollMs) await pollAnnounced(options, state, hinted);
      else {
        await pollMempool(options, state);
        lastFullMs = now();
      }
      if (now() - lastPrune > DECIDED_KEPT_MS / 24) {
        await store.prune(source.coin, now() - DECIDED_KEPT_MS);
        lastPrune = now();
      }
      if (failingSinceMs !== undefined) logger.info({ coin: source.coin }, "mempool polls succeed again");
      failingSinceMs = undefined;
    } catch (error) {
      if (signal.aborted) break;
      // Said at once, then once a minute while it lasts (a node without the pool method fails every poll).
      if (failingSinceMs === undefined || now() - lastWarnMs >= 60_000) {
        logger.warn(
          { coin: source.coin, err: error },
          "mempool poll failed: no pending events for this chain until it succeeds; trying again",
        );
        lastWarnMs = now();
      }
      failingSinceMs ??= now();
    }
    const sleepMs = idle ? Math.min(pollMs, IDLE_CHECK_MS) : pollMs;
    if (options.wake) await options.wake.sleep(sleepMs, signal);
    else await new Promise((resolve) => setTimeout(resolve, sleepMs));
  }
}

/** One poll: the mempool's diff, new pending transfers announced, left ones resolved. */
export async function pollMempool<Tx>(options: WatchMempoolOptions<Tx>, state: MempoolState): Promise<void> {
  const { source } = options;
  const ids = await source.txids();
  const current = new Set(ids);
  const fresh = ids.filter((txid) => !state.seen.has(txid));
  for (const txid of state.seen.keys()) if (!current.has(txid)) state.seen.delete(txid);
  const again = newlyWatched(options, state, new Set(fresh));
  // Read, matched and announced a chunk at a time: a whole mempool read at start-up is never held at once.
  const toRead = [...fresh, ...again];
  for (let i = 0; i < toRead.length; i += READ_CHUNK) {
    const txs = await readNew(options, state, toRead.slice(i, i + READ_CHUNK));
    // A replacement read now: the replaced one's outcome goes before the replacement's own pending.
    await resolveLeftTransfers(options, state, current, replacedNow(state, current));
    await announcePending(options, state, txs);
  }
  await resolveLeftTransfers(options, state, current);
  options.onPoll?.({ mempoolSize: current.size, fresh: fresh.length, open: state.open.size });
}

/** Transactions the node announced (ZMQ `sequence`) between diffs: read and announced at once. */
export async function pollAnnounced<Tx>(options: WatchMempoolOptions<Tx>, state: MempoolState, txids: readonly string[]): Promise<void> {
  const fresh = [...new Set(txids)].filter((txid) => !state.seen.has(txid));
  await announcePending(options, state, await readNew(options, state, fresh));
}

/** Reads transactions new to the watcher, remembers what each pays, and which open one each replaces. */
async function readNew<Tx>(options: WatchMempoolOptions<Tx>, state: MempoolState, txids: readonly string[]): Promise<Tx[]> {
  const { source } = options;
  // One that left before it was read is remembered without keys: it is not asked for again.
  for (const txid of txids) if (!state.seen.has(txid)) state.seen.set(txid, "");
  const txs = await fetchTransactions(source, txids, options.fetchConcurrency ?? 8);
  for (const tx of txs) {
    const txid = source.txid(tx);
    // One string per transaction: the smallest form V8 keeps (addresses hold no spaces).
    state.seen.set(txid, source.keys(tx).join(" "));
    for (const spend of source.spends(tx)) {
      const earlier = state.bySpend.get(spend);
      if (earlier !== undefined && earlier !== txid) state.replacedBy.set(earlier, txid);
    }
  }
  return txs;
}

/** Open transactions gone from the mempool whose replacement has been read. */
function replacedNow(state: MempoolState, current: ReadonlySet<string>): Set<string> {
  return new Set([...state.replacedBy.keys()].filter((txid) => state.open.has(txid) && !current.has(txid)));
}

/**
 * After the watch index changed (an address or a webhook's `pending` added), the transactions seen
 * before that pay a watched key and are not announced: a payment that reached the mempool before
 * its address reached the scanner is still pending. Only these are read again.
 */
function newlyWatched<Tx>(options: WatchMempoolOptions<Tx>, state: MempoolState, fresh: ReadonlySet<string>): string[] {
  const { index, source } = options;
  if (state.indexChanges === index.changes) return [];
  state.indexChanges = index.changes;
  const txids: string[] = [];
  for (const [txid, keys] of state.seen) {
    if (fresh.has(txid) || state.open.has(txid)) continue;
    if (keys && keys.split(" ").some((key) => index.watchers(source.coin, key) !== undefined)) txids.push(txid);
  }
  return txids;
}

async function fetchTransactions<Tx>(source: MempoolSource<Tx>, txids: readonly string[], concurrency: number): Promise<Tx[]> {
  const found: Tx[] = [];
  const chunk = Math.max(1, concurrency);
  for (let i = 0; i < txids.length; i += chunk) {
    for (const tx of await source.transactions(txids.slice(i, i + chunk))) if (tx !== null) found.push(tx);
  }
  return found;
}
