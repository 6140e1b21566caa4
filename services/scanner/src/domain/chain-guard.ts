/**
 * Keeps a chain's follower on the chain its kept blocks came from, and stops it loudly when it
 * cannot go on: a node of another chain (its identity differs from the one stored with the
 * cursor), or a reorg below the kept window. A stopped follower re-checks every few seconds, so an
 * operator's reset (`scanner-admin reset`) or a repaired node is picked up without a restart.
 *
 * Invariant: blocks are only processed while the identity of the node answering equals the stored
 * one (or none is stored yet: it is adopted). The node client checks each URL again when it starts
 * answering after a failover or a cool-down; this guard checks at every start (lease acquired).
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Coin } from "@chaingate/contracts";
import type { BlockSource, Cursor, FollowerLogger } from "./ports.ts";
import { ReorgTooDeepError } from "./scanner-errors.ts";

/** How often a stopped follower, or a running one, looks for an operator's reset. */
export const DEFAULT_RESET_POLL_MS = 5_000;
/** After an unexpected failure of the follower, following is tried again this often. */
export const STOPPED_RETRY_MS = 30_000;

export type FollowerState = "standby" | "waiting" | "following" | "stopped_wrong_chain" | "stopped_reorg_too_deep";
export const FOLLOWER_STATES: readonly FollowerState[] = [
  "standby",
  "waiting",
  "following",
  "stopped_wrong_chain",
  "stopped_reorg_too_deep",
];

export interface FollowerStatus {
  state: FollowerState;
  /** Why it is not following, with the fix. */
  reason?: string;
}

export interface ChainState {
  /** The chain identity of the node the kept blocks were read from; absent until first read. */
  identity?: string;
  /** Where a follower without a cursor starts (set by a reset). */
  startHeight?: number;
  /** A reset requested and not applied yet; `from` absent: the node's tip. */
  pendingReset?: { seq: number; from?: number };
}

export interface ChainStateStore {
  read(coin: Coin): Promise<ChainState>;
  /** Stores the identity when none is stored. */
  adoptIdentity(coin: Coin, identity: string): Promise<void>;
  /** In one transaction: the coin's kept blocks and matches are forgotten, `identity` and `startHeight` stored, request `seq` marked applied. */
  applyReset(coin: Coin, seq: number, identity: string, startHeight: number): Promise<void>;
  requestReset(coin: Coin, from: number | undefined): Promise<void>;
  /** The oldest kept block. */
  lowestKept(coin: Coin): Promise<Cursor | undefined>;
}

/** The chain's node as the guard sees it (the node client with its endpoint checks). */
export interface ChainNode {
  /** The chain identity of the node answering now, e.g. "chain id 1, genesis 0xd4e5…". */
  identity(): Promise<string>;
  /** The identity endpoint checks expect: URLs of another chain are refused; undefined accepts any. */
  expect(identity: string | undefined): void;
  /** URLs refused as another chain, while they sit out their cool-down. */
  refusals(): Array<{ url: string; reason: string }>;
}

export interface ChainGuardOptions {
  coin: Coin;
  store: ChainStateStore;
  node: ChainNode;
  source: Pick<BlockSource<unknown>, "tipHeight" | "hashAt">;
  logger: FollowerLogger;
  resetPollMs?: number;
  stoppedRetryMs?: number;
  /**
   * Dev only: a chain whose node changed identity or no longer has any kept block (a dev chain
   * started fresh) is reset to the node's tip instead of stopping.
   */
  resetStaleChain?: boolean;
  /** Told of every state change (metrics). */
  onState?: (status: FollowerStatus) => void;
}

/** How an operator gets a stopped chain going again. */
export function resetCommand(coin: Coin, from: "tip" | "<height>" = "tip"): string {
  return `pnpm --silent scanner-admin reset --chain ${coin} --from ${from}`;
}

export interface ChainGuard {
  status(): FollowerStatus;
  /** Standby: another replica holds the lease. */
  standby(): void;
  /** Runs `follow` while the chain is right, until `signal` aborts; `follow` gets where to start without a cursor and its own signal. */
  run(signal: AbortSignal, follow: (startHeight: number | undefined, signal: AbortSignal) => Promise<void>): Promise<void>;
}

export function createChainGuard(options: ChainGuardOptions): ChainGuard {
  const { coin, store, node, logger } = options;
  const resetPollMs = options.resetPollMs ?? DEFAULT_RESET_POLL_MS;
  const stoppedRetryMs = options.stoppedRetryMs ?? STOPPED_RETRY_MS;
  let status: FollowerStatus = { state: "standby" };

  function setStatus(next: FollowerStatus): void {
    if (next.state === status.state && next.reason === status.reason) return;
    if (next.state === "following" && status.state.startsWith("stopped")) logger.info({ coin }, `${coin}: following again`);
    status = next;
    options.onState?.(next);
  }

  /** Waits `ms`, or less when a reset is requested meanwhile or `signal` aborts. */
  async function waitOrReset(ms: number, signal: AbortSignal): Promise<void> {
    const until = Date.now() + ms;
    while (!signal.aborted && Date.now() < until) {
      await sleep(Math.min(resetPollMs, until - Date.now()), signal);
      if (signal.aborted) return;
      try {
        if ((await store.read(coin)).pendingReset) return;
      } catch {
        // The database is down: the follower's own retries report it.
      }
    }
  }

  function stopWrongChain(reason: string): void {
    const message = `${coin}: ${reason}. Following ${coin} stopped: no block of another chain is processed. Fix: point the ${coin} node URL at a node of the chain this scanner follows, or, if the chain is meant to change (a new dev chain, a deliberate switch), reset: ${resetCommand(coin)} (or --from <height>)`;
    if (status.state !== "stopped_wrong_chain") logger.error({ coin, fix: resetCommand(coin) }, message);
    setStatus({ state: "stopped_wrong_chain", reason: message });
  }

  async function applyReset(reset: { seq: number; from?: number }, why: string): Promise<void> {
    node.expect(undefined);
    const identity = await node.identity();
    const startHeight = reset.from ?? (await options.source.tipHeight());
    await store.applyReset(coin, reset.seq, identity, startHeight);
    node.expect(identity);
    logger.warn(
      { coin, identity, start_height: startHeight },
      `${coin}: ${why}: kept blocks and pending matches forgotten; following ${identity} from block ${startHeight}`,
    );
  }

  /** Checks the chain; returns where to start, or undefined when not following (it waited). */
  async function admit(signal: AbortSignal): Promise<{ startHeight: number | undefined } | undefined> {
    let state = await store.read(coin);
    if (state.pendingReset) {
      await applyReset(state.pendingReset, "operator reset applied");
      state = await store.read(coin);
    }
    node.expect(state.identity);
    let identity = "";
    let wrong: string | undefined;
    try {
      identity = await node.identity();
      if (state.identity !== undefined && identity !== state.identity)
        wrong = `the node serves ${identity}, not ${state.identity} (the chain of the kept blocks)`;
    } catch (error) {
      const refused = node.refusals();
      if (refused.length === 0) throw error;
      wrong = `no node URL serves ${state.identity ?? "the chain of the kept blocks"} (${refused.map((entry) => `${entry.url}: ${entry.reason}`).join("; ")})`;
    }
    if (wrong !== undefined) {
      if (await resetIfDev(wrong)) return undefined;
      stopWrongChain(wrong);
      await waitOrReset(resetPollMs, signal);
      return undefined;
    }
    if (state.identity === undefined) {
      await store.adoptIdentity(coin, identity);
      node.expect(identity);
      logger.info({ coin, identity }, `${coin}: following the node's chain ${identity}`);
    }
    if (options.resetStaleChain && (await keptBlocksGone())) {
      await resetIfDev("the node has none of the kept blocks (a dev chain started fresh)");
      return undefined;
    }
    return { startHeight: state.startHeight };
  }

  async function keptBlocksGone(): Promise<boolean> {
    const lowest = await store.lowestKept(coin);
    return lowest !== undefined && (await options.source.hashAt(lowest.height)) !== lowest.hash;
  }

  async function resetIfDev(why: string): Promise<boolean> {
    if (!options.resetStaleChain) return false;
    logger.warn({ coin }, `${coin}: ${why}; resetting to the node's tip (SCANNER_RESET_STALE_CHAINS, dev only)`);
    await store.requestReset(coin, undefined);
    return true;
  }

  /** After a reorg below the window: until a reset is requested or the node has the kept blocks again (back on our branch). */
  async function waitForResetOrKeptBlocks(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await sleep(resetPollMs, signal);
      try {
        if ((await store.read(coin)).pendingReset || !(await keptBlocksGone())) return;
      } catch {
        // The database or the node is down: keep waiting.
      }
    }
  }

  /** Polls for a reset while following; aborts `follow` when one arrives. */
  async function watchResets(signal: AbortSignal, abort: () => void): Promise<void> {
    while (!signal.aborted) {
      await sleep(resetPollMs, signal);
      if (signal.aborted) return;
      try {
        if ((await store.read(coin)).pendingReset) return abort();
      } catch {
        // The follower meets the same database and reports it.
      }
    }
  }

  return {
    status: () => status,
    standby: () => setStatus({ state: "standby" }),
    async run(signal, follow) {
      while (!signal.aborted) {
        let admitted;
        try {
          admitted = await admit(signal);
        } catch (error) {
          if (signal.aborted) return;
          if (status.state !== "waiting")
            logger.warn({ coin, err: error, retry_every_ms: resetPollMs }, `${coin}: cannot check the node's chain yet; retrying`);
          setStatus({
            state: "waiting",
            reason: `${coin}: reading the node's chain identity failed: ${error instanceof Error ? error.message : String(error)}`,
          });
          await sleep(resetPollMs, signal);
          continue;
        }
        if (!admitted) continue;
        setStatus({ state: "following" });
        const inner = new AbortController();
        const both = AbortSignal.any([signal, inner.signal]);
        const watcher = watchResets(both, () => inner.abort());
        try {
          await follow(admitted.startHeight, both);
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof ReorgTooDeepError) {
            if (await resetIfDev(error.message)) continue;
            const message = `${error.message}: matches there can no longer be reverted. Following ${coin} stopped. Fix: check the node is on the right chain and synced; then reset: ${resetCommand(coin)} (or --from <height> to process from a height again)`;
            logger.error({ coin, err: error, fix: resetCommand(coin) }, message);
            setStatus({ state: "stopped_reorg_too_deep", reason: message });
            await waitForResetOrKeptBlocks(signal);
          } else {
            logger.error({ coin, err: error }, `${coin}: follower stopped; retrying in ${stoppedRetryMs} ms`);
            setStatus({ state: "waiting", reason: `${coin}: follower stopped: ${error instanceof Error ? error.message : String(error)}` });
            await waitOrReset(stoppedRetryMs, signal);
          }
        } finally {
          inner.abort();
          await watcher;
        }
      }
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}
