import type { WakeableSleep } from "@chaingate/backoff";
import type { Coin } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { hostname } from "node:os";
import type { ScannerConfig } from "../config.ts";
import { followChain } from "../domain/follow-chain.ts";
import type { FollowChainOptions } from "../domain/follow-chain/follow-chain-options.ts";
import type { ChainFollowerSpec } from "../domain/ports.ts";
import { acquireAdvisoryLease } from "../infra/advisory-lease.ts";
import type { ChainGuards } from "../infra/chain-guards.ts";
import { SCANNER_SCHEMA } from "../infra/database-schema.ts";
import type { ScannerMetrics } from "../infra/scanner-metrics.ts";
import type { SerialLock } from "../domain/serial-lock.ts";

/** The follower's callbacks the service sets per chain. */
export type FollowerHooks = Pick<FollowChainOptions<unknown>, "onBlock" | "onReorg" | "onNodeBehind" | "onWatchFeedBehind">;

/** What every chain's leased follower of this process shares. */
export interface LeasedChainContext {
  config: ScannerConfig;
  logger: Logger;
  /** Aborted when the service stops. */
  stop: AbortSignal;
  /** Coins whose lease this process holds right now (kept up to date here). */
  held: Set<Coin>;
  scannerMetrics: ScannerMetrics;
  guards: ChainGuards;
  leaseName: (coin: Coin) => string;
  /** The watch index, the projection, the store and the sink every follower uses. */
  follower: Pick<FollowChainOptions<unknown>, "index" | "watchFeed" | "store" | "sink">;
  wakes: ReadonlyMap<Coin, WakeableSleep>;
  reorgWindows: Record<Coin, number>;
  /** The follower hooks of one chain (metrics, readiness). */
  followerHooks: (coin: Coin) => FollowerHooks;
  /** Per chain, shared by its follower and its mempool watcher (serial-lock.ts). */
  commitLocks: ReadonlyMap<Coin, SerialLock>;
  /** Follows the chain's mempool while the lease is held, for a chain that has one (issue #29). */
  watchMempool?: (coin: Coin, signal: AbortSignal) => Promise<void> | undefined;
}

/** Where each chain's follower starts without a cursor (undefined: the node's tip, as for every configured EVM chain). */
export function startHeightsOf(config: ScannerConfig): Record<Coin, number | undefined> {
  return { BTC: config.BTC_START_HEIGHT, ETH: config.ETH_START_HEIGHT, TRX: config.TRX_START_HEIGHT };
}

/** Each chain's reorg window: the built-in chains' settings, a configured EVM chain's entry (its `reorg_window`). */
export function reorgWindowsOf(config: ScannerConfig): Record<Coin, number> {
  const windows: Record<Coin, number> = { BTC: config.BTC_REORG_WINDOW, ETH: config.ETH_REORG_WINDOW, TRX: config.TRX_REORG_WINDOW };
  for (const { entry } of config.EVM_CHAINS) windows[entry.coin] = entry.reorgWindow;
  return windows;
}

/**
 * Follows one chain while this process holds its lease, under the chain's guard; acquires the lease
 * again after losing it, until the service stops.
 */
export async function followLeasedChain(
  context: LeasedChainContext,
  spec: ChainFollowerSpec<unknown>,
  startHeight: number | undefined,
): Promise<void> {
  const { config, stop, held, scannerMetrics, guards } = context;
  const log = context.logger.child({ coin: spec.coin });
  while (!stop.aborted) {
    let lease;
    try {
      lease = await acquireAdvisoryLease(
        {
          connectionString: config.DATABASE_URL,
          name: context.leaseName(spec.coin),
          holder: `${hostname()}:${process.pid}`,
          renewalTable: `${SCANNER_SCHEMA}.lease_renewals`,
          logger: log,
          pollMs: config.SCANNER_LEASE_POLL_MS,
          expiryMs: config.SCANNER_LEASE_EXPIRY_MS,
        },
        stop,
      );
    } catch {
      return;
    }
    held.add(spec.coin);
    scannerMetrics.leading(spec.coin, true);
    try {
      // The guard checks the node's chain and stops loudly on a wrong chain or a reorg below the window.
      await guards.guard(spec.coin).run(AbortSignal.any([stop, lease.signal]), (resetStart, signal) =>
        withMempoolWatch(context, spec.coin, signal, () =>
          followChain({
            chain: spec,
            ...context.follower,
            logger: log,
            signal,
            fetchConcurrency: config.SCANNER_FETCH_CONCURRENCY,
            pollIntervalMs: spec.coin === "TRX" ? config.TRX_POLL_INTERVAL_MS : config.SCANNER_POLL_INTERVAL_MS,
            wake: context.wakes.get(spec.coin)!,
            nodeBehindFailoverMs: config.SCANNER_NODE_BEHIND_FAILOVER_MS,
            watchGraceMs: config.SCANNER_WATCH_GRACE_MS,
            reorgWindow: context.reorgWindows[spec.coin],
            ...((resetStart ?? startHeight) === undefined ? {} : { startHeight: resetStart ?? startHeight }),
            ...context.followerHooks(spec.coin),
            commitLock: context.commitLocks.get(spec.coin)!,
          }),
        ),
      );
    } finally {
      held.delete(spec.coin);
      guards.guard(spec.coin).standby();
      scannerMetrics.leading(spec.coin, false);
      await lease.release();
    }
  }
}

/** Runs the chain's mempool watcher beside `follow`, and stops it when the follower ends. */
async function withMempoolWatch(context: LeasedChainContext, coin: Coin, signal: AbortSignal, follow: () => Promise<void>): Promise<void> {
  const ended = new AbortController();
  const watching = context.watchMempool?.(coin, AbortSignal.any([signal, ended.signal]));
  try {
    await follow();
  } finally {
    ended.abort();
    await watching;
  }
}
