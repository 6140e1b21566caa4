/**
 * Per chain: the wake-ups its block announcements ring (the follower's and the mempool watcher's),
 * the lock the two take turns with, and the mempool watcher itself for a chain that has a mempool.
 */
import { createWakeableSleep, type WakeableSleep } from "@chaingate/backoff";
import type { Coin } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import type { ScannerConfig } from "../config.ts";
import type { MempoolSource, MempoolStore } from "../domain/mempool/mempool-ports.ts";
import { watchMempool } from "../domain/mempool/watch-mempool.ts";
import type { EventSink, FollowerStore } from "../domain/ports.ts";
import { createSerialLock, type SerialLock } from "../domain/serial-lock.ts";
import type { WatchIndex } from "../domain/watch-index.ts";

/** Announced txids waiting for the watcher, per chain. */
const MAX_HINTS = 10_000;

export interface MempoolWatchers {
  /** Rung by a chain's announcements: wakes its follower and its mempool watcher (an outcome waits for the block). */
  wakes: Map<Coin, WakeableSleep>;
  commitLocks: Map<Coin, SerialLock>;
  /** A txid the node announced entering its mempool: read at once by the chain's watcher. */
  hint(coin: Coin, txid: string): void;
  /** Runs the chain's mempool watcher until `signal` aborts; undefined for a chain without one. */
  watch(coin: Coin, signal: AbortSignal): Promise<void> | undefined;
}

export interface MempoolWatchersOptions {
  coins: readonly Coin[];
  config: Pick<ScannerConfig, "MEMPOOL_POLL_INTERVAL_MS" | "MEMPOOL_DROP_AFTER_SECONDS">;
  mempools: Partial<Record<Coin, MempoolSource<unknown>>>;
  index: WatchIndex;
  store: MempoolStore;
  followerStore: FollowerStore;
  sink: EventSink;
  logger: Logger;
}

export function createMempoolWatchers(options: MempoolWatchersOptions): MempoolWatchers {
  const { coins, config } = options;
  const follower = new Map(coins.map((coin) => [coin, createWakeableSleep()]));
  const mempool = new Map(coins.map((coin) => [coin, createWakeableSleep()]));
  const wakes = new Map<Coin, WakeableSleep>(
    coins.map((coin) => [
      coin,
      {
        sleep: follower.get(coin)!.sleep,
        wake: () => {
          follower.get(coin)!.wake();
          mempool.get(coin)!.wake();
        },
      },
    ]),
  );
  const commitLocks = new Map(coins.map((coin) => [coin, createSerialLock()]));
  const hinted = new Map<Coin, string[]>(coins.map((coin) => [coin, []]));
  return {
    wakes,
    commitLocks,
    hint(coin, txid) {
      const queue = hinted.get(coin);
      // Bounded: past it the next diff of the whole mempool finds them.
      if (!queue || queue.length >= MAX_HINTS) return;
      queue.push(txid);
      mempool.get(coin)!.wake();
    },
    watch(coin, signal) {
      const source = options.mempools[coin];
      if (!source) return undefined;
      return watchMempool({
        source,
        index: options.index,
        store: options.store,
        generations: (c, keys) => options.followerStore.generations(c, keys),
        publish: (event) => options.sink.publishTransfer(event),
        lock: commitLocks.get(coin)!,
        logger: options.logger.child({ coin, part: "mempool" }),
        signal,
        pollIntervalMs: config.MEMPOOL_POLL_INTERVAL_MS,
        dropAfterMs: config.MEMPOOL_DROP_AFTER_SECONDS * 1000,
        wake: mempool.get(coin)!,
        hints: () => hinted.get(coin)!.splice(0),
      });
    },
  };
}
