/**
 * One chain guard per followed chain, and how their states show: `/readyz` (a stopped chain under
 * `failures`, a refused node URL beside a working one under `degraded`) and the gauge
 * `scanner_follower_state{chain,state}` (1 for the chain's current state, 0 for the others).
 */
import type { Coin } from "@chaingate/contracts";
import type { ServiceMetrics } from "@chaingate/service-kit";
import {
  createChainGuard,
  FOLLOWER_STATES,
  resetCommand,
  type ChainGuard,
  type ChainStateStore,
  type FollowerStatus,
} from "../domain/chain-guard.ts";
import type { ChainFollowerSpec, FollowerLogger } from "../domain/ports.ts";
import type { ChainNodes } from "./create-chain-specs.ts";

export interface ChainGuardsOptions {
  specs: ReadonlyArray<ChainFollowerSpec<unknown>>;
  nodes: ChainNodes;
  store: ChainStateStore;
  logger: FollowerLogger & { child(fields: object): FollowerLogger };
  metrics: ServiceMetrics;
  resetPollMs: number;
  /** Dev only (SCANNER_RESET_STALE_CHAINS). */
  resetStaleChains: boolean;
}

export interface ChainGuards {
  guard(coin: Coin): ChainGuard;
  /** Per chain: fails while it is stopped (named by the coin). */
  readinessChecks: Record<string, () => Promise<void>>;
  /** Per chain: fails while a node URL is refused as another chain but another one serves. */
  degradedChecks: Record<string, () => Promise<void>>;
}

export function createChainGuards(options: ChainGuardsOptions): ChainGuards {
  const guards = new Map<Coin, ChainGuard>();
  for (const spec of options.specs) {
    const node = options.nodes[spec.coin];
    if (!node) continue;
    guards.set(
      spec.coin,
      createChainGuard({
        coin: spec.coin,
        store: options.store,
        node,
        source: spec.source,
        logger: options.logger.child({ coin: spec.coin }),
        resetPollMs: options.resetPollMs,
        resetStaleChain: options.resetStaleChains,
      }),
    );
  }

  /** The guard's state, or stopped when every URL that could answer is refused as another chain while following. */
  function statusOf(coin: Coin): FollowerStatus {
    const status = guards.get(coin)!.status();
    const node = options.nodes[coin]!;
    const refused = node.refusals();
    if (status.state !== "following" || refused.length === 0 || node.answering()) return status;
    const urls = refused.map((entry) => `${entry.url} ${entry.reason}`).join("; ");
    return {
      state: "stopped_wrong_chain",
      reason: `${coin}: no node URL of this chain answers (${urls}). Fix: point the ${coin} node URL at a node of the followed chain, or reset: ${resetCommand(coin)}`,
    };
  }

  const coins = [...guards.keys()];
  const metrics = options.metrics;
  metrics.gauge({
    name: `${metrics.prefix}follower_state`,
    help: "1 for the chain follower's current state (standby, waiting, following, stopped_wrong_chain, stopped_reorg_too_deep), 0 for the others.",
    labelNames: ["chain", "state"],
    collect() {
      for (const coin of coins) {
        const { state } = statusOf(coin);
        for (const each of FOLLOWER_STATES) this.set({ chain: coin.toLowerCase(), state: each }, each === state ? 1 : 0);
      }
    },
  });

  return {
    guard: (coin) => guards.get(coin)!,
    readinessChecks: Object.fromEntries(
      coins.map((coin) => [
        coin,
        async () => {
          const status = statusOf(coin);
          if (status.state.startsWith("stopped")) throw new Error(`${status.state}: ${status.reason ?? ""}`);
        },
      ]),
    ),
    degradedChecks: Object.fromEntries(
      coins.map((coin) => [
        `${coin} node`,
        async () => {
          const refused = options.nodes[coin]!.refusals();
          if (refused.length > 0 && statusOf(coin).state === "following")
            throw new Error(`refused as another chain: ${refused.map((entry) => `${entry.url} ${entry.reason}`).join("; ")}`);
        },
      ]),
    ),
  };
}
