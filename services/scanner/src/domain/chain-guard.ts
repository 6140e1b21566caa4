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
import type { Coin } from "@chaingate/contracts";
import type { BlockSource, Cursor, FollowerLogger } from "./ports.ts";
import { setGuardStatus, type ChainGuardContext } from "./chain-guard/chain-guard-context.ts";
import { runGuarded } from "./chain-guard/run-guarded.ts";

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

export { resetCommand } from "./chain-guard/reset-command.ts";

export interface ChainGuard {
  status(): FollowerStatus;
  /** Standby: another replica holds the lease. */
  standby(): void;
  /** Runs `follow` while the chain is right, until `signal` aborts; `follow` gets where to start without a cursor and its own signal. */
  run(signal: AbortSignal, follow: (startHeight: number | undefined, signal: AbortSignal) => Promise<void>): Promise<void>;
}

export function createChainGuard(options: ChainGuardOptions): ChainGuard {
  const context: ChainGuardContext = {
    options,
    coin: options.coin,
    store: options.store,
    node: options.node,
    logger: options.logger,
    resetPollMs: options.resetPollMs ?? DEFAULT_RESET_POLL_MS,
    stoppedRetryMs: options.stoppedRetryMs ?? STOPPED_RETRY_MS,
    status: { state: "standby" },
  };
  return {
    status: () => context.status,
    standby: () => setGuardStatus(context, { state: "standby" }),
    run: (signal, follow) => runGuarded(context, signal, follow),
  };
}
