import type { EthereumBlock } from "../../domain/match-ethereum-block.ts";
import {
  MalformedTraceError,
  valueFramesFromCallTracer,
  valueFramesFromParityTraces,
  valueFramesFromTracerList,
  type CallTracerFrame,
  type InternalValueFrame,
  type ParityTrace,
} from "../../domain/ethereum-call-frames.ts";
import type { EthereumSourceContext, NotReady } from "./ethereum-source-context.ts";
import { fetchCallTraces } from "./fetch-call-traces.ts";
import { VALUE_FRAME_TRACER } from "./value-frame-tracer.ts";

/** Internal value frames per transaction, in the block's order: exactly one trace per transaction. */
export async function internalTransfersOf(
  context: EthereumSourceContext,
  block: EthereumBlock,
  notReady: NotReady,
): Promise<InternalValueFrame[][]> {
  try {
    if (context.traceMode === "debug") return await debugTraceFrames(context, block, CALL_TRACER, notReady);
    if (context.traceMode === "js") return await debugTraceFrames(context, block, VALUE_TRACER, notReady);
    return await parityTraceFrames(context, block, notReady);
  } catch (error) {
    if (error instanceof MalformedTraceError) throw notReady(`unreadable call trace: ${error.message}`);
    throw error;
  }
}

/** What a `debug_traceBlockByHash` answer holds per transaction, with the tracer that wrote it. */
interface BlockTracer {
  options: { tracer: string };
  /**
   * The transaction's value frames from the trace's `result`, and the sender the trace starts at;
   * `suspect` when the node's tracer may have misreported a frame (callTracer is then asked).
   */
  read(result: unknown): { from: unknown; frames: InternalValueFrame[]; suspect?: boolean };
}

/** geth's callTracer: the whole call tree. */
const CALL_TRACER: BlockTracer = {
  options: { tracer: "callTracer" },
  read: (result) => ({ from: (result as CallTracerFrame).from, frames: valueFramesFromCallTracer(result as CallTracerFrame) }),
};

/** chaingate's own tracer: only the frames that move value (value-frame-tracer.ts). */
const VALUE_TRACER: BlockTracer = {
  options: { tracer: VALUE_FRAME_TRACER },
  read: (result) => {
    const { from, frames, suspect } = result as { from?: unknown; frames?: unknown; suspect?: unknown };
    return { from, frames: valueFramesFromTracerList(frames), suspect: suspect === true };
  },
};

/** The options `debug_traceBlockByHash` is called with in `mode` (debug or js). */
export const debugTraceOptions = (mode: "debug" | "js") => (mode === "js" ? VALUE_TRACER : CALL_TRACER).options;

/** `debug_traceBlockByHash` with `tracer`: one trace per transaction, in order, each starting at its sender. */
async function debugTraceFrames(
  context: EthereumSourceContext,
  block: EthereumBlock,
  tracer: BlockTracer,
  notReady: NotReady,
): Promise<InternalValueFrame[][]> {
  const txs = block.transactions;
  const traces = await fetchCallTraces<Array<{ txHash?: string; result?: unknown; error?: string }> | null>(
    context,
    "debug_traceBlockByHash",
    [block.hash, tracer.options],
    notReady,
  );
  if (!Array.isArray(traces)) throw notReady("debug_traceBlockByHash answered no list");
  if (traces.length !== txs.length) throw notReady(`${traces.length} call traces for ${txs.length} transactions`);
  let suspect = false;
  const framesPerTransaction = traces.map((trace, i) => {
    const tx = txs[i]!;
    if (trace?.error !== undefined) throw notReady(`the trace of ${tx.hash} failed: ${trace.error}`);
    if (trace?.txHash !== undefined && trace.txHash.toLowerCase() !== tx.hash.toLowerCase())
      throw notReady(`call trace ${i} is of ${trace.txHash}, not of ${tx.hash}`);
    if (typeof trace?.result !== "object" || trace.result === null) throw notReady(`call trace ${i} has no result`);
    const read = tracer.read(trace.result);
    if (typeof read.from !== "string" || read.from.toLowerCase() !== tx.from.toLowerCase())
      throw notReady(`call trace ${i} does not start at ${tx.hash}'s sender`);
    suspect ||= read.suspect === true;
    return read.frames;
  });
  // Rare (a SELFDESTRUCT on a revm-based node): the whole block once more, from the built-in tracer.
  return suspect ? debugTraceFrames(context, block, CALL_TRACER, notReady) : framesPerTransaction;
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
