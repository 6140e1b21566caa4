/**
 * Ethereum internal transfers: the call frames inside a transaction that moved ether, read from
 * either tracer a node offers, in one form. A geth-style `callTracer` answer is a tree; a
 * parity-style `trace_block` answer is the same tree as a depth-first list with trace addresses.
 *
 * Kept: CALL with value, CREATE/CREATE2 with value (to the new contract), SELFDESTRUCT (to its
 * beneficiary). Dropped: the top-level frame (the transaction's own transfer, matched from the
 * transaction itself), a frame that reverted and every frame under it (their value went back),
 * DELEGATECALL/STATICCALL/CALLCODE (their `value` is the caller's own, nothing moves to `to`), zero
 * values, and a contract paying itself. Whether the transaction as a whole failed is the matcher's
 * business (the receipt's status), not the trace's.
 *
 * Each frame is numbered by its place in the tree walked depth first (the top-level call is 0),
 * which both tracers give alike: unique and stable within the transaction, so it serves as the
 * transfer's position. Its trace address ("0.2": the third call made by the first call) says where.
 */

import { ChaingateError } from "@chaingate/errors";

/** One ether movement inside a transaction. Addresses lower-case, value a hex quantity. */
export interface InternalValueFrame {
  type: "CALL" | "CREATE" | "CREATE2" | "SELFDESTRUCT";
  from: string;
  to: string;
  value: string;
  /** The frame's index in the call tree walked depth first; the top-level call is 0. */
  index: number;
  /** Child indexes from the top-level call, joined by "." (parity's traceAddress). */
  traceAddress: string;
}

/** A frame of geth's `callTracer` (fields as nodes send them, typed optional: checked, not trusted). */
export interface CallTracerFrame {
  type?: string;
  from?: string;
  to?: string;
  value?: string;
  error?: string;
  calls?: CallTracerFrame[];
}

/** An entry of parity's `trace_block` / `trace_transaction`. */
export interface ParityTrace {
  type?: string;
  action?: {
    callType?: string;
    from?: string;
    to?: string;
    value?: string;
    creationMethod?: string;
    address?: string;
    refundAddress?: string;
    balance?: string;
  };
  result?: { address?: string } | null;
  error?: string;
  traceAddress?: number[];
  transactionHash?: string | null;
  blockHash?: string;
}

/** Thrown for a trace that cannot be read as a call tree: the node's answer is not trusted. */
export class MalformedTraceError extends ChaingateError {
  override name = "MalformedTraceError";
  constructor(message: string) {
    // The node may trace the block properly on a later try (the block source waits for it).
    super("malformed_trace", message, { retryable: true });
  }
}

const MOVES_VALUE: ReadonlySet<string> = new Set(["CALL", "CREATE", "CREATE2", "SELFDESTRUCT"]);
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
const ZERO_QUANTITY = /^0x0*$/;
/** Deepest call tree read (the EVM's call depth limit is 1,024); deeper is not a trace of a transaction. */
const MAX_CALL_DEPTH = 1_100;

/**
 * The value-moving frames of one transaction's `callTracer` tree, in depth-first order.
 *
 * A block's trace holds thousands of frames and most move nothing, so the walk allocates only for
 * the frames it keeps: the cheap checks (type, a value that is absent or "0x0") come before the
 * hex check, and a frame's trace address is built from a stack of child positions only when the
 * frame is kept. Nothing is kept of the tree itself but the strings of the frames returned.
 */
export function valueFramesFromCallTracer(root: CallTracerFrame): InternalValueFrame[] {
  if (typeof root !== "object" || root === null || typeof root.type !== "string")
    throw new MalformedTraceError("a call trace without a type");
  const walk: CallTreeWalk = { frames: [], index: 1, positions: [], lastFrom: "", lastFromKey: "" };
  if (root.error === undefined) walkCalls(walk, root.calls, 0);
  else walk.index += countFrames(root.calls, 0);
  return walk.frames;
}

interface CallTreeWalk {
  frames: InternalValueFrame[];
  /** The depth-first index of the next frame. */
  index: number;
  /** The position of the frame being walked among its parent's calls, per depth (its trace address). */
  positions: number[];
  /** The last kept frame's sender as the node wrote it, and lower-cased: siblings mostly share it. */
  lastFrom: string;
  lastFromKey: string;
}

/** Walks the children of a frame that did not revert, at `depth` (0: the top-level call's children). */
function walkCalls(walk: CallTreeWalk, calls: unknown, depth: number): void {
  if (calls === undefined) return;
  if (!Array.isArray(calls) || depth >= MAX_CALL_DEPTH) throw new MalformedTraceError("a call trace whose calls are not a list");
  for (let i = 0; i < calls.length; i++) {
    const frame: unknown = calls[i];
    if (typeof frame !== "object" || frame === null || typeof (frame as CallTracerFrame).type !== "string")
      throw new MalformedTraceError("a call frame without a type");
    const { type, error, calls: children } = frame as CallTracerFrame & { type: string };
    walk.positions[depth] = i;
    const index = walk.index++;
    // A reverted frame moved nothing, nor did anything under it; its frames are still counted.
    if (error !== undefined) {
      walk.index += countFrames(children, depth + 1);
      continue;
    }
    const value = (frame as CallTracerFrame).value;
    if (value !== undefined && value !== "0x0" && (MOVES_VALUE.has(type) || MOVES_VALUE.has(type.toUpperCase())))
      keepIfValue(walk, type, frame as CallTracerFrame, value, index, depth);
    walkCalls(walk, children, depth + 1);
  }
}

/** Frames in `calls` and under them (a reverted subtree, only counted). */
function countFrames(calls: unknown, depth: number): number {
  if (calls === undefined) return 0;
  if (!Array.isArray(calls) || depth >= MAX_CALL_DEPTH) throw new MalformedTraceError("a call trace whose calls are not a list");
  let count = calls.length;
  for (const frame of calls) {
    if (typeof frame !== "object" || frame === null) throw new MalformedTraceError("a call frame that is not an object");
    count += countFrames((frame as CallTracerFrame).calls, depth + 1);
  }
  return count;
}

function keepIfValue(walk: CallTreeWalk, type: string, frame: CallTracerFrame, value: unknown, index: number, depth: number): void {
  if (typeof value !== "string" || !HEX_QUANTITY.test(value)) throw new MalformedTraceError(`a frame with value ${JSON.stringify(value)}`);
  const { from, to } = frame;
  if (typeof from !== "string" || typeof to !== "string" || ZERO_QUANTITY.test(value)) return;
  // Frames are kept until the block is matched: a sender repeated frame after frame is held once.
  if (from !== walk.lastFrom) {
    walk.lastFrom = from;
    walk.lastFromKey = from.toLowerCase();
  }
  const fromKey = walk.lastFromKey;
  const toKey = to.toLowerCase();
  if (fromKey === toKey) return;
  const positions = walk.positions;
  let path = String(positions[0]);
  for (let d = 1; d <= depth; d++) path += `.${positions[d]}`;
  walk.frames.push({
    type: (MOVES_VALUE.has(type) ? type : type.toUpperCase()) as InternalValueFrame["type"],
    from: fromKey,
    to: toKey,
    value,
    index,
    traceAddress: path,
  });
}

/** The value-moving frames of one transaction's parity traces (depth-first, as `trace_block` lists them). */
export function valueFramesFromParityTraces(traces: readonly ParityTrace[]): InternalValueFrame[] {
  const frames: InternalValueFrame[] = [];
  const reverted: string[] = [];
  traces.forEach((trace, index) => {
    if (!Array.isArray(trace.traceAddress)) throw new MalformedTraceError("a trace without a trace address");
    if ((index === 0) !== (trace.traceAddress.length === 0))
      throw new MalformedTraceError("a transaction's traces do not start at its top-level call");
    const path = trace.traceAddress.join(".");
    // Parents come first: a frame under a reverted one starts with its address.
    const underRevert = reverted.some((address) => address === "" || path === address || path.startsWith(`${address}.`));
    if (trace.error !== undefined) reverted.push(path);
    if (index === 0 || underRevert || trace.error !== undefined) return;
    const action = trace.action ?? {};
    if (trace.type === "call") pushIfValue(frames, action.callType?.toUpperCase() ?? "", action.from, action.to, action.value, index, path);
    else if (trace.type === "create")
      pushIfValue(
        frames,
        action.creationMethod === "create2" ? "CREATE2" : "CREATE",
        action.from,
        trace.result?.address,
        action.value,
        index,
        path,
      );
    else if (trace.type === "suicide")
      pushIfValue(frames, "SELFDESTRUCT", action.address, action.refundAddress, action.balance, index, path);
  });
  return frames;
}

/**
 * The value frames of one transaction as chaingate's own tracer lists them (ETH_TRACE_MODE=js):
 * `[index, traceAddress, type, from, to, value]` each, reverted subtrees already left out by the
 * node. Checked as any node's answer is: a malformed entry throws.
 */
export function valueFramesFromTracerList(list: unknown): InternalValueFrame[] {
  if (!Array.isArray(list)) throw new MalformedTraceError("a tracer answer whose frames are not a list");
  const frames: InternalValueFrame[] = [];
  for (const entry of list) {
    if (!Array.isArray(entry) || entry.length !== 6 || !Number.isSafeInteger(entry[0]) || entry[0] < 1 || typeof entry[1] !== "string")
      throw new MalformedTraceError(`a tracer frame ${JSON.stringify(entry)?.slice(0, 200)}`);
    const [index, path, type, from, to, value] = entry as [number, string, unknown, unknown, unknown, unknown];
    if (typeof type !== "string" || !MOVES_VALUE.has(type) || typeof value !== "string")
      throw new MalformedTraceError(`a tracer frame ${JSON.stringify(entry).slice(0, 200)}`);
    pushIfValue(frames, type, typeof from === "string" ? from : undefined, typeof to === "string" ? to : undefined, value, index, path);
  }
  return frames;
}

function pushIfValue(
  into: InternalValueFrame[],
  type: string,
  from: string | undefined,
  to: string | undefined,
  value: string | undefined,
  index: number,
  path: string,
): void {
  const kind = MOVES_VALUE.has(type) ? type : type.toUpperCase();
  if (!MOVES_VALUE.has(kind) || typeof value !== "string" || typeof from !== "string" || typeof to !== "string") return;
  if (!HEX_QUANTITY.test(value)) throw new MalformedTraceError(`a frame with value ${JSON.stringify(value)}`);
  if (ZERO_QUANTITY.test(value)) return;
  const fromKey = from.toLowerCase();
  const toKey = to.toLowerCase();
  if (fromKey === toKey) return;
  into.push({ type: kind as InternalValueFrame["type"], from: fromKey, to: toKey, value, index, traceAddress: path });
}
