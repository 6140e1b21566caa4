import { NodeRpcError } from "@chaingate/node-client";
import type { EthereumSourceContext, NotReady } from "./ethereum-source-context.ts";
import { refusesMethod, refusesTracer } from "./node-rpc-refusals.ts";

function reportRefusal(context: EthereumSourceContext, next: string | null): void {
  if (next === context.refusal) return;
  context.refusal = next;
  context.onCallTraces?.(next);
}

/** The node's trace answer for the block, refusals reported and turned into "not ready". */
export async function fetchCallTraces<T>(
  context: EthereumSourceContext,
  method: string,
  params: unknown[],
  notReady: NotReady,
): Promise<T> {
  try {
    const answer = await context.node.call<T>(method, params);
    reportRefusal(context, null);
    return answer;
  } catch (error) {
    if (refusesMethod(error) || refusesTracer(error)) {
      reportRefusal(context, `the node refuses ${method}: ${(error as NodeRpcError).rpcMessage}`);
      throw notReady(`the node refuses ${method}`);
    }
    // The node answered with an error (a tracer timeout, a block it cannot trace yet): wait.
    if (error instanceof NodeRpcError) throw notReady(`${method} answered ${error.rpcCode} ${error.rpcMessage}`);
    throw error;
  }
}
