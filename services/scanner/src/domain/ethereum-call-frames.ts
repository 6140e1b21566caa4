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
export class MalformedTraceError extends Error {
  override name = "MalformedTraceError";
}

const MOVES_VALUE = new Set(["CALL", "CREATE", "CREATE2", "SELFDESTRUCT"]);

/** The value-moving frames of one transaction's `callTracer` tree, in depth-first order. */
export function valueFramesFromCallTracer(root: CallTracerFrame): InternalValueFrame[] {
  if (typeof root !== "object" || root === null || typeof root.type !== "string")
    throw new MalformedTraceError("a call trace without a type");
  const frames: InternalValueFrame[] = [];
  let index = 0;
  const walk = (frame: CallTracerFrame, path: readonly number[], underRevert: boolean) => {
    const reverted = underRevert || frame.error !== undefined;
    const type = frame.type?.toUpperCase() ?? "";
    if (index > 0 && !reverted) pushIfValue(frames, type, frame.from, frame.to, frame.value, index, path);
    index++;
    (frame.calls ?? []).forEach((child, i) => walk(child, [...path, i], reverted));
  };
  walk(root, [], false);
  return frames;
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
    if (trace.type === "call")
      pushIfValue(frames, action.callType?.toUpperCase() ?? "", action.from, action.to, action.value, index, trace.traceAddress);
    else if (trace.type === "create")
      pushIfValue(
        frames,
        action.creationMethod === "create2" ? "CREATE2" : "CREATE",
        action.from,
        trace.result?.address,
        action.value,
        index,
        trace.traceAddress,
      );
    else if (trace.type === "suicide")
      pushIfValue(frames, "SELFDESTRUCT", action.address, action.refundAddress, action.balance, index, trace.traceAddress);
  });
  return frames;
}

function pushIfValue(
  into: InternalValueFrame[],
  type: string,
  from: string | undefined,
  to: string | undefined,
  value: string | undefined,
  index: number,
  path: readonly number[],
): void {
  if (!MOVES_VALUE.has(type) || typeof value !== "string" || typeof from !== "string" || typeof to !== "string") return;
  if (!/^0x[0-9a-fA-F]+$/.test(value)) throw new MalformedTraceError(`a frame with value ${JSON.stringify(value)}`);
  if (BigInt(value) === 0n) return;
  const fromKey = from.toLowerCase();
  const toKey = to.toLowerCase();
  if (fromKey === toKey) return;
  into.push({ type: type as InternalValueFrame["type"], from: fromKey, to: toKey, value, index, traceAddress: path.join(".") });
}
