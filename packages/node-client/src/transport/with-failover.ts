/** Failover across a client's URLs: each tried in turn until one answers, the ones that fail marked down. */
import {
  NodeAnswerError,
  NodeAuthError,
  NodeCallAbortedError,
  NodeNotConfiguredError,
  NodeRpcError,
  NodeUnreachableError,
} from "../node-errors.ts";
import type { Attempt, NodeClientContext } from "./node-client-context.ts";
import type { Upstream } from "./upstream.ts";
import { markDown } from "./upstream-health.ts";
import { verifyUpstream } from "./verify-upstream.ts";

/** Tries healthy URLs in order (all of them, in order, when none is healthy). */
export async function withFailover<T>(
  context: NodeClientContext,
  signal: AbortSignal | undefined,
  attempt: (upstream: Upstream) => Promise<Attempt<T>>,
): Promise<T> {
  const { chain, upstreams, now } = context;
  if (upstreams.length === 0) throw new NodeNotConfiguredError(chain, "no node URL");
  const healthy = upstreams.filter((upstream) => upstream.unhealthyUntil <= now());
  const order = healthy.length > 0 ? [...healthy, ...upstreams.filter((upstream) => !healthy.includes(upstream))] : upstreams;
  const failures: Array<{ url: string; reason: string }> = [];
  let authFailure: { url: string; status: number } | undefined;
  let lastCause: unknown;
  for (const upstream of order) {
    if (signal?.aborted) throw new NodeCallAbortedError(chain, { cause: signal.reason });
    let outcome: Attempt<T>;
    try {
      const check = await verifyUpstream(context, upstream);
      outcome = check.kind === "ok" ? await attempt(upstream) : check;
    } catch (error) {
      // The node's own answer or a configuration gap: not the URL's fault.
      if (error instanceof NodeRpcError || error instanceof NodeNotConfiguredError || error instanceof NodeAnswerError) throw error;
      lastCause = error;
      outcome = { kind: "down", reason: describeTransportError(error) };
    }
    if (outcome.kind === "ok") {
      upstream.unhealthyUntil = 0;
      delete upstream.lastError;
      context.answered = upstream;
      return outcome.value;
    }
    // Whatever failed after our caller gave up failed because of it, not because of the node.
    if (signal?.aborted) throw new NodeCallAbortedError(chain, { cause: signal.reason });
    const reason =
      outcome.kind === "auth"
        ? `HTTP ${outcome.status} (credentials refused)`
        : outcome.kind === "refused"
          ? `refused: ${outcome.reason}`
          : outcome.reason;
    if (outcome.kind === "auth") authFailure ??= { url: upstream.displayUrl, status: outcome.status };
    markDown(context, upstream, reason);
    if (outcome.kind === "refused") upstream.refused = outcome.reason;
    failures.push({ url: upstream.displayUrl, reason });
  }
  if (authFailure) throw new NodeAuthError(chain, authFailure.url, authFailure.status);
  throw new NodeUnreachableError(chain, failures, { cause: lastCause });
}

function describeTransportError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const nested = (error.cause as { code?: unknown } | undefined)?.code;
    const label = [typeof code === "string" ? code : undefined, typeof nested === "string" ? nested : undefined].filter(Boolean).join("/");
    return label ? `${label}: ${error.message}` : `${error.name}: ${error.message}`;
  }
  return String(error);
}
