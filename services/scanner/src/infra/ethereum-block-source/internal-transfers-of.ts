import type { EthereumBlock } from "../../domain/match-ethereum-block.ts";
import {
  MalformedTraceError,
  valueFramesFromCallTracer,
  valueFramesFromParityTraces,
  type CallTracerFrame,
  type InternalValueFrame,
  type ParityTrace,
} from "../../domain/ethereum-call-frames.ts";
import type { EthereumSourceContext, NotReady } from "./ethereum-source-context.ts";
import { fetchCallTraces } from "./fetch-call-traces.ts";

/** Internal value frames per transaction, in the block's order: exactly one trace per transaction. */
export async function internalTransfersOf(
  context: EthereumSourceContext,
  block: EthereumBlock,
  notReady: NotReady,
): Promise<InternalValueFrame[][]> {
  try {
    if (context.traceMode === "debug") return await debugTraceFrames(context, block, notReady);
    return await parityTraceFrames(context, block, notReady);
  } catch (error) {
    if (error instanceof MalformedTraceError) throw notReady(`unreadable call trace: ${error.message}`);
    throw error;
  }
}

/** geth's `debug_traceBlockByHash` with `callTracer`: one trace per transaction, in order, each starting at its sender. */
async function debugTraceFrames(context: EthereumSourceContext, block: EthereumBlock, notReady: NotReady): Promise<InternalValueFrame[][]> {
  const txs = block.transactions;
  const traces = await fetchCallTraces<Array<{ txHash?: string; result?: CallTracerFrame; error?: string }> | null>(
    context,
    "debug_traceBlockByHash",
    [block.hash, { tracer: "callTracer" }],
    notReady,
  );
  if (!Array.isArray(traces)) throw notReady("debug_traceBlockByHash answered no list");
  if (traces.length !== txs.length) throw notReady(`${traces.length} call traces for ${txs.length} transactions`);
  return traces.map((trace, i) => {
    const tx = txs[i]!;
    if (trace?.error !== undefined) throw notReady(`the trace of ${tx.hash} failed: ${trace.error}`);
    if (trace?.txHash !== undefined && trace.txHash.toLowerCase() !== tx.hash.toLowerCase())
      throw notReady(`call trace ${i} is of ${trace.txHash}, not of ${tx.hash}`);
    if (!trace?.result || trace.result.from?.toLowerCase() !== tx.from.toLowerCase())
      throw notReady(`call trace ${i} does not start at ${tx.hash}'s sender`);
    return valueFramesFromCallTracer(trace.result);
  });
}

/** parity's `trace_block`: the block's traces grouped by transaction, every transaction traced. */
async function parityTraceFrames(
  context: EthereumSourceContext,
  block: EthereumBlock,
  notReady: NotReady,
): Promise<InternalValueFrame[][]> {
  const txs = block.transactions;
  const traces = await fetchCallTraces<ParityTrace[] | null>(context, "trace_block", [block.number], notReady);
  if (!Array.isArray(traces)) throw notReady("trace_block answered no list");
  const byTransaction = new Map<string, ParityTrace[]>();
  for (const trace of traces) {
    if (trace?.blockHash !== undefined && trace.blockHash.toLowerCase() !== block.hash.toLowerCase())
      throw notReady(`trace_block answered for block ${trace.blockHash}`);
    // Block and uncle rewards have no transaction.
    if (typeof trace?.transactionHash !== "string") continue;
    const hash = trace.transactionHash.toLowerCase();
    const list = byTransaction.get(hash);
    if (list) list.push(trace);
    else byTransaction.set(hash, [trace]);
  }
  if (byTransaction.size !== txs.length) throw notReady(`traces of ${byTransaction.size} transactions for ${txs.length}`);
  return txs.map((tx) => {
    const list = byTransaction.get(tx.hash.toLowerCase());
    if (!list) throw notReady(`no trace of transaction ${tx.hash}`);
    return valueFramesFromParityTraces(list);
  });
}
