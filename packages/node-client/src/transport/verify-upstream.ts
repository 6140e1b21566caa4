/** `verifyEndpoint`'s check of a URL before it first answers and after each cool-down. */
import type { NodeEndpoint, RequestOptions } from "../node-client.ts";
import { NodeUnreachableError } from "../node-errors.ts";
import { callAttempt } from "./call-attempt.ts";
import type { Attempt, NodeClientContext } from "./node-client-context.ts";
import { requestAttempt } from "./request-attempt.ts";
import type { Upstream } from "./upstream.ts";

/** `verifyEndpoint`'s verdict on a URL not checked since it last failed. */
export async function verifyUpstream(context: NodeClientContext, upstream: Upstream): Promise<Attempt<undefined>> {
  const verifyEndpoint = context.options.verifyEndpoint;
  if (!verifyEndpoint || upstream.verified) return { kind: "ok", value: undefined };
  upstream.verifying ??= (async (): Promise<Attempt<undefined>> => {
    try {
      const refusal = await verifyEndpoint(endpointOf(context, upstream));
      if (refusal !== undefined) return { kind: "refused", reason: refusal };
      upstream.verified = true;
      delete upstream.refused;
      return { kind: "ok", value: undefined };
    } catch (error) {
      return { kind: "down", reason: `endpoint check failed: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      delete upstream.verifying;
    }
  })();
  return upstream.verifying;
}

/** A URL's own calls, failures thrown (verifyEndpoint's view of one node). */
function endpointOf(context: NodeClientContext, upstream: Upstream): NodeEndpoint {
  const settle = <T>(outcome: Attempt<T>): T => {
    if (outcome.kind === "ok") return outcome.value;
    throw new NodeUnreachableError(context.chain, [
      { url: upstream.displayUrl, reason: outcome.kind === "auth" ? `HTTP ${outcome.status} (credentials refused)` : outcome.reason },
    ]);
  };
  return {
    url: upstream.displayUrl,
    call: async <T>(method: string, params: readonly unknown[] = []) => settle(await callAttempt<T>(context, upstream, method, params, {})),
    request: async <T>(path: string, requestOptions: Omit<RequestOptions, "signal" | "lossless"> = {}) =>
      settle(await requestAttempt<T>(context, upstream, path, requestOptions)),
  };
}
