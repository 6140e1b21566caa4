import { setTimeout as delay } from "node:timers/promises";
import type { Coin } from "@chaingate/contracts";
import type { ChainGuardOptions, ChainNode, ChainStateStore, FollowerStatus } from "../chain-guard.ts";
import type { FollowerLogger } from "../ports.ts";

/** What one chain's guard shares between its operations: its options, resolved, and its status. */
export interface ChainGuardContext {
  options: ChainGuardOptions;
  coin: Coin;
  store: ChainStateStore;
  node: ChainNode;
  logger: FollowerLogger;
  resetPollMs: number;
  stoppedRetryMs: number;
  /** The guard's current status; changed through setGuardStatus only. */
  status: FollowerStatus;
}

export function setGuardStatus(context: ChainGuardContext, next: FollowerStatus): void {
  const { status, coin, logger } = context;
  if (next.state === status.state && next.reason === status.reason) return;
  if (next.state === "following" && status.state.startsWith("stopped")) logger.info({ coin }, `${coin}: following again`);
  context.status = next;
  context.options.onState?.(next);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}
