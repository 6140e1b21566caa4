import { describe, expect, test } from "vitest";
import { createWakeableSleep } from "@chaingate/backoff";
import { createSerialLock } from "../serial-lock.ts";
import { WatchIndex } from "../watch-index.ts";
import type { MempoolEvent } from "./mempool-event.ts";
import type { MempoolSource, MempoolStore, OpenMempoolTransfer } from "./mempool-ports.ts";
import { watchMempool } from "./watch-mempool.ts";

/** A mempool transaction paying one address. */
interface FakeTx {
  txid: string;
  to: string;
}

function fakeSource(mempool: FakeTx[]): MempoolSource<FakeTx> {
  return {
    coin: "BTC",
    mined: "double_spent",
    txids: async () => mempool.map((tx) => tx.txid),
    transactions: async (txids) => txids.map((txid) => mempool.find((tx) => tx.txid === txid) ?? null),
    txid: (tx) => tx.txid,
    keys: (tx) => [tx.to],
    spends: (tx) => [`${tx.txid}-in:0`],
    match: (txs, index) =>
      txs.flatMap((tx) => {
        const watchers = index.watchers("BTC", tx.to);
        const ids = watchers === undefined ? [] : typeof watchers === "number" ? [watchers] : [...watchers];
        return ids.map((webhookId) => ({
          transfer: {
            coin: "BTC",
            currency: "BTC",
            from: null,
            to: tx.to,
            amount: "0.01",
            rawAmount: "1000000",
            decimals: 8,
            tokenContract: null,
            txid: tx.txid,
            position: 0,
            executionStatus: "SUCCESS",
          },
          webhookId,
          watchedAddress: tx.to,
          confirmations: 1,
        }));
      }),
    details: async () => ({ replaceable: true, feeRate: "1.0" }),
    isMined: async () => false,
    minedConflict: async () => undefined,
  };
}

function memoryStore(): MempoolStore {
  const recorded: OpenMempoolTransfer[] = [];
  return {
    open: async () => [],
    matchedInBlocks: async () => new Set(),
    announced: async (_coin, ids) => {
      const known = new Set(recorded.map((t) => `${t.key}:${t.generation}`));
      return new Map(ids.filter((id) => known.has(`${id.key}:${id.generation}`)).map((id) => [`${id.key}:${id.generation}`, null]));
    },
    record: async (_coin, transfers) => void recorded.push(...transfers),
    markLeft: async () => undefined,
    decide: async () => undefined,
    prune: async () => undefined,
  };
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

describe("mempool watcher", () => {
  test("a webhook that turns pending on is served within a second, though the poll interval is 30 s and nothing wakes the watcher", async () => {
    const index = new WatchIndex();
    const published: MempoolEvent[] = [];
    const stop = new AbortController();
    const source = fakeSource([{ txid: "aa".repeat(32), to: "bcrt1qwatched" }]);
    const watching = watchMempool({
      source,
      index,
      store: memoryStore(),
      generations: async () => new Map(),
      publish: async (event) => void published.push(event),
      lock: createSerialLock(),
      logger: silent,
      signal: stop.signal,
      pollIntervalMs: 30_000,
      wake: createWakeableSleep(),
      hints: () => [],
    });
    try {
      // The watcher found no webhook wanting pending and went to sleep.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // As the scanner's projection applies it: the watcher is not told.
      index.apply({ webhookId: 1, coin: "BTC", addresses: ["bcrt1qwatched"], isActive: true, deleted: false, version: 1, pending: true });
      const deadline = Date.now() + 3_000;
      while (!published.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(published.map((event) => [event.type, event.txid])).toEqual([["pending", "aa".repeat(32)]]);
    } finally {
      stop.abort();
      await watching;
    }
  });
});
