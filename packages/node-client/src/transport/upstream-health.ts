/** The health of a client's URLs: marking one down, demoting the one that answered, reporting them all. */
import type { UpstreamState } from "../node-client.ts";
import type { NodeClientContext } from "./node-client-context.ts";
import type { Upstream } from "./upstream.ts";

/** Skipped for a cool-down; checked again by `verifyEndpoint` before it answers next. */
export function markDown(context: NodeClientContext, upstream: Upstream, reason: string): void {
  upstream.unhealthyUntil = context.now() + context.coolDownMs;
  upstream.lastError = reason;
  upstream.verified = false;
  delete upstream.refused;
}

/** NodeClient.demoteCurrent: the URL that answered the most recent call, marked down. */
export function demoteCurrent(context: NodeClientContext, reason: string): string | undefined {
  if (!context.answered) return undefined;
  markDown(context, context.answered, reason);
  return context.answered.displayUrl;
}

/** NodeClient.upstreams: each URL's health, credentials stripped. */
export function upstreamStates(context: NodeClientContext): UpstreamState[] {
  return context.upstreams.map((upstream) => {
    const state: UpstreamState = {
      url: upstream.displayUrl,
      healthy: upstream.unhealthyUntil <= context.now(),
      unhealthyUntil: upstream.unhealthyUntil,
    };
    if (upstream.lastError !== undefined) state.lastError = upstream.lastError;
    if (upstream.refused !== undefined) state.refused = upstream.refused;
    return state;
  });
}
