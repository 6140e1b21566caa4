import { BlockNotReadyError } from "../../domain/scanner-errors.ts";
import type { EthereumSourceContext } from "./ethereum-source-context.ts";
import { fetchCallTraces } from "./fetch-call-traces.ts";
import { debugTraceOptions } from "./internal-transfers-of.ts";

/**
 * Traces the node's newest block once, so that a node refusing the trace method is reported at
 * start rather than at the first block with a transaction. Never throws.
 */
export async function probeCallTraces(context: EthereumSourceContext): Promise<void> {
  const { node, traceMode } = context;
  if (traceMode === "off") return;
  try {
    const block = await node.call<{ hash: string; number: string } | null>("eth_getBlockByNumber", ["latest", false]);
    if (!block) return;
    const notReady = (reason: string) => new BlockNotReadyError(context.coin, Number(block.number), reason);
    await (traceMode === "parity"
      ? fetchCallTraces(context, "trace_block", [block.number], notReady)
      : fetchCallTraces(context, "debug_traceBlockByHash", [block.hash, debugTraceOptions(traceMode)], notReady));
  } catch {
    // Only a refusal matters here, and fetchCallTraces has reported it; the follower retries the rest.
  }
}
