import { describe, expect, test } from "vitest";
import {
  MalformedTraceError,
  valueFramesFromCallTracer,
  valueFramesFromParityTraces,
  valueFramesFromTracerList,
  type CallTracerFrame,
  type ParityTrace,
} from "./ethereum-call-frames.ts";

const EOA = "0x" + "e0".repeat(20);
const FORWARDER = "0x" + "f1".repeat(20);
const RELAY = "0x" + "f2".repeat(20);
const WATCHED = "0x" + "a1".repeat(20);
const OTHER = "0x" + "b2".repeat(20);

/**
 * One transaction as geth's callTracer (and Anvil's) answers it: EOA → FORWARDER (value 9), which
 * pays WATCHED 1, calls RELAY (value 5) which pays WATCHED 2 and OTHER 3, tries a call that pays
 * WATCHED 4 and then reverts, delegate-calls a library (value shown, nothing moves), selfdestructs to
 * WATCHED 6 and creates a contract with 7.
 */
const tree: CallTracerFrame = {
  type: "CALL",
  from: EOA,
  to: FORWARDER,
  value: "0x9",
  calls: [
    { type: "CALL", from: FORWARDER, to: WATCHED.toUpperCase().replace("0X", "0x"), value: "0x1" },
    {
      type: "CALL",
      from: FORWARDER,
      to: RELAY,
      value: "0x5",
      calls: [
        { type: "CALL", from: RELAY, to: WATCHED, value: "0x2" },
        { type: "CALL", from: RELAY, to: OTHER, value: "0x3" },
      ],
    },
    {
      type: "CALL",
      from: FORWARDER,
      to: RELAY,
      value: "0x4",
      error: "execution reverted",
      calls: [{ type: "CALL", from: RELAY, to: WATCHED, value: "0x4" }],
    },
    { type: "DELEGATECALL", from: FORWARDER, to: OTHER, value: "0x9" },
    { type: "STATICCALL", from: FORWARDER, to: OTHER },
    { type: "CALL", from: FORWARDER, to: FORWARDER, value: "0x8" },
    { type: "CALL", from: FORWARDER, to: OTHER, value: "0x0" },
    { type: "SELFDESTRUCT", from: FORWARDER, to: WATCHED, value: "0x6" },
    { type: "CREATE2", from: FORWARDER, to: OTHER, value: "0x7" },
  ],
};

/** The same transaction as parity's trace_block lists it (depth first, trace addresses). */
const parity: ParityTrace[] = [
  { type: "call", action: { callType: "call", from: EOA, to: FORWARDER, value: "0x9" }, traceAddress: [] },
  { type: "call", action: { callType: "call", from: FORWARDER, to: WATCHED, value: "0x1" }, traceAddress: [0] },
  { type: "call", action: { callType: "call", from: FORWARDER, to: RELAY, value: "0x5" }, traceAddress: [1] },
  { type: "call", action: { callType: "call", from: RELAY, to: WATCHED, value: "0x2" }, traceAddress: [1, 0] },
  { type: "call", action: { callType: "call", from: RELAY, to: OTHER, value: "0x3" }, traceAddress: [1, 1] },
  { type: "call", action: { callType: "call", from: FORWARDER, to: RELAY, value: "0x4" }, traceAddress: [2], error: "Reverted" },
  { type: "call", action: { callType: "call", from: RELAY, to: WATCHED, value: "0x4" }, traceAddress: [2, 0] },
  { type: "call", action: { callType: "delegatecall", from: FORWARDER, to: OTHER, value: "0x9" }, traceAddress: [3] },
  { type: "call", action: { callType: "staticcall", from: FORWARDER, to: OTHER, value: "0x0" }, traceAddress: [4] },
  { type: "call", action: { callType: "call", from: FORWARDER, to: FORWARDER, value: "0x8" }, traceAddress: [5] },
  { type: "call", action: { callType: "call", from: FORWARDER, to: OTHER, value: "0x0" }, traceAddress: [6] },
  { type: "suicide", action: { address: FORWARDER, refundAddress: WATCHED, balance: "0x6" }, result: null, traceAddress: [7] },
  { type: "create", action: { from: FORWARDER, value: "0x7", creationMethod: "create2" }, result: { address: OTHER }, traceAddress: [8] },
];

const expected = [
  { type: "CALL", from: FORWARDER, to: WATCHED, value: "0x1", index: 1, traceAddress: "0" },
  { type: "CALL", from: FORWARDER, to: RELAY, value: "0x5", index: 2, traceAddress: "1" },
  { type: "CALL", from: RELAY, to: WATCHED, value: "0x2", index: 3, traceAddress: "1.0" },
  { type: "CALL", from: RELAY, to: OTHER, value: "0x3", index: 4, traceAddress: "1.1" },
  { type: "SELFDESTRUCT", from: FORWARDER, to: WATCHED, value: "0x6", index: 11, traceAddress: "7" },
  { type: "CREATE2", from: FORWARDER, to: OTHER, value: "0x7", index: 12, traceAddress: "8" },
];

describe("internal value frames", () => {
  test("callTracer: every frame that moved ether, depth first, without the top-level call, reverted subtrees or delegate calls", () => {
    expect(valueFramesFromCallTracer(tree)).toEqual(expected);
  });

  test("parity traces give the same frames with the same positions", () => {
    expect(valueFramesFromParityTraces(parity)).toEqual(expected);
  });

  test("a reverted top-level call moves nothing inside it", () => {
    expect(valueFramesFromCallTracer({ ...tree, error: "execution reverted" })).toEqual([]);
    expect(valueFramesFromParityTraces([{ ...parity[0]!, error: "Reverted" }, ...parity.slice(1)])).toEqual([]);
  });

  test("a plain transfer has no internal frames", () => {
    expect(valueFramesFromCallTracer({ type: "CALL", from: EOA, to: WATCHED, value: "0x1" })).toEqual([]);
  });

  test("answers that are not call trees are refused, not read as 'nothing moved'", () => {
    expect(() => valueFramesFromCallTracer(null as unknown as CallTracerFrame)).toThrow(MalformedTraceError);
    expect(() => valueFramesFromCallTracer({ from: EOA })).toThrow(MalformedTraceError);
    expect(() => valueFramesFromParityTraces([{ type: "call", action: {} }])).toThrow(MalformedTraceError);
    expect(() => valueFramesFromParityTraces(parity.slice(1))).toThrow(MalformedTraceError);
    expect(() => valueFramesFromCallTracer({ ...tree, calls: [{ type: "CALL", from: FORWARDER, to: WATCHED, value: "lots" }] })).toThrow(
      MalformedTraceError,
    );
    // Anywhere in the tree, reverted parts included: a frame that is not one, calls that are not a list, a value that is not text.
    const malformed: unknown[] = [
      [null],
      [{ from: FORWARDER, to: WATCHED, value: "0x1" }],
      [{ type: "CALL", from: FORWARDER, to: WATCHED, value: 1 }],
      [{ type: "CALL", from: FORWARDER, to: RELAY, value: "0x0", calls: { 0: { type: "CALL" } } }],
      [{ type: "CALL", from: FORWARDER, to: RELAY, value: "0x0", error: "execution reverted", calls: [null] }],
    ];
    for (const calls of malformed)
      expect(() => valueFramesFromCallTracer({ ...tree, calls } as CallTracerFrame)).toThrow(MalformedTraceError);
  });

  test("frames under a reverted call still count for the positions after them", () => {
    const deep = { type: "CALL", from: RELAY, to: OTHER, value: "0x0", calls: [{ type: "CALL", from: OTHER, to: EOA, value: "0x1" }] };
    const frames = valueFramesFromCallTracer({
      ...tree,
      calls: [
        { type: "CALL", from: FORWARDER, to: RELAY, value: "0x1", error: "execution reverted", calls: [deep, deep] },
        { type: "STATICCALL", from: FORWARDER, to: RELAY, calls: [deep] },
      ],
    });
    // 0 top level, 1 reverted, 2-5 under it, 6 the static call, 7 and 8 under it.
    expect(frames).toEqual([{ type: "CALL", from: OTHER, to: EOA, value: "0x1", index: 8, traceAddress: "1.0.0" }]);
  });

  test("chaingate's own tracer's list gives the same frames (the node left out the reverted ones), checked as any answer is", () => {
    // What VALUE_FRAME_TRACER answers for `tree`: value frames only, a zero value and the delegate call left out by the node.
    const list = [
      [1, "0", "CALL", FORWARDER, WATCHED.toUpperCase().replace("0X", "0x"), "0x1"],
      [2, "1", "CALL", FORWARDER, RELAY, "0x5"],
      [3, "1.0", "CALL", RELAY, WATCHED, "0x2"],
      [4, "1.1", "CALL", RELAY, OTHER, "0x3"],
      [9, "5", "CALL", FORWARDER, FORWARDER, "0x8"],
      [11, "7", "SELFDESTRUCT", FORWARDER, WATCHED, "0x6"],
      [12, "8", "CREATE2", FORWARDER, OTHER, "0x7"],
    ];
    expect(valueFramesFromTracerList(list)).toEqual(expected);
    expect(valueFramesFromTracerList([])).toEqual([]);
    const malformed: unknown[] = [
      null,
      { 0: list[0] },
      [[1, "0", "CALL", FORWARDER, WATCHED]],
      [[0, "", "CALL", EOA, FORWARDER, "0x9"]],
      [["1", "0", "CALL", FORWARDER, WATCHED, "0x1"]],
      [[1, "0", "DELEGATECALL", FORWARDER, WATCHED, "0x1"]],
      [[1, "0", "CALL", FORWARDER, WATCHED, 1]],
      [[1, "0", "CALL", FORWARDER, WATCHED, "lots"]],
    ];
    for (const answer of malformed) expect(() => valueFramesFromTracerList(answer)).toThrow(MalformedTraceError);
  });
});
