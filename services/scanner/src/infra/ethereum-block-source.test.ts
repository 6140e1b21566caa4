import { NodeRpcError, type NodeClient } from "@chaingate/node-client";
import { describe, expect, test } from "vitest";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";
import { createEthereumBlockSource } from "./ethereum-block-source.ts";
import { VALUE_FRAME_TRACER } from "./ethereum-block-source/value-frame-tracer.ts";

const BLOCK_HASH = "0xb10c";
const tx = (hash: string) => ({ hash, from: "0xa1", to: "0xb2", value: "0x1", input: "0x" });
const receipt = (hash: string, status = "0x1", blockHash = BLOCK_HASH) => ({
  transactionHash: hash,
  blockHash,
  status,
  logs: [{ address: "0xc3", topics: [], data: "0x", logIndex: "0x0" }],
});
const BLOCK = { number: "0x7", hash: BLOCK_HASH, parentHash: "0xb10b", timestamp: "0x1", transactions: [tx("0x01"), tx("0x02")] };

/** A node answering each method from a script: a function of the params, or an error to throw. */
function scriptedNode(script: Record<string, (params: readonly unknown[]) => unknown>): NodeClient & { calls: string[] } {
  const calls: string[] = [];
  const call = async (method: string, params: readonly unknown[] = []) => {
    calls.push(method);
    const answer = script[method];
    if (!answer)
      throw new NodeRpcError(
        { id: "eth", name: "Ethereum" },
        method,
        -32601,
        `the method ${method} does not exist/is not available`,
        "node_error",
      );
    return answer(params);
  };
  return { calls, call } as unknown as NodeClient & { calls: string[] };
}

const byReceiptsOf = (receipts: unknown) => scriptedNode({ eth_getBlockByNumber: () => BLOCK, eth_getBlockReceipts: () => receipts });

describe("an Ethereum block is returned only with one receipt per transaction, of that block", () => {
  test("receipts matching the transactions one to one give each transaction its status and logs", async () => {
    const block = await createEthereumBlockSource(byReceiptsOf([receipt("0x01", "0x0"), receipt("0x02")])).blockAt(7);
    expect(block?.transactions.map(({ hash, status, logs }) => ({ hash, status, logs: logs?.length }))).toEqual([
      { hash: "0x01", status: "0x0", logs: 1 },
      { hash: "0x02", status: "0x1", logs: 1 },
    ]);
  });

  const notReady: Array<[string, unknown, RegExp]> = [
    ["eth_getBlockReceipts answering null (a backend without the block yet)", null, /answered null/],
    ["fewer receipts than transactions", [receipt("0x01")], /1 receipts for 2 transactions/],
    ["no receipts at all", [], /0 receipts for 2 transactions/],
    ["receipts of other transactions", [receipt("0x01"), receipt("0x03")], /receipt 1 is of 0x03, not of 0x02/],
    ["receipts out of the block's order", [receipt("0x02"), receipt("0x01")], /receipt 0 is of 0x02/],
    ["a receipt of another block (another fork)", [receipt("0x01"), receipt("0x02", "0x1", "0xf0f0")], /of block 0xf0f0/],
  ];
  test.each(notReady)("%s: BlockNotReadyError, never a block", async (_name, receipts, reason) => {
    const error = await createEthereumBlockSource(byReceiptsOf(receipts))
      .blockAt(7)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockNotReadyError);
    expect(error).toMatchObject({
      code: "block_not_ready",
      retryable: true,
      details: { coin: "ETH", height: 7 },
      message: expect.stringMatching(reason),
    });
  });

  test("a configured chain's block not ready is named by its own coin (a POLYGON operator's log says POLYGON)", async () => {
    const error = await createEthereumBlockSource(byReceiptsOf([]), { coin: "POLYGON" })
      .blockAt(7)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ details: { coin: "POLYGON", height: 7 }, message: expect.stringMatching(/^POLYGON: /) });
  });

  test("per-transaction fallback (no eth_getBlockReceipts): a null receipt is not ready; complete receipts give the block", async () => {
    let ready = false;
    const node = scriptedNode({
      eth_getBlockByNumber: () => BLOCK,
      eth_getTransactionReceipt: ([hash]) => (hash === "0x02" && !ready ? null : receipt(String(hash))),
    });
    const source = createEthereumBlockSource(node);
    await expect(source.blockAt(7)).rejects.toThrow(/no receipt for transaction 0x02/);
    ready = true;
    expect((await source.blockAt(7))?.transactions.map((t) => t.status)).toEqual(["0x1", "0x1"]);
    // eth_getBlockReceipts was tried once, then the node is known not to have it.
    expect(node.calls.filter((method) => method === "eth_getBlockReceipts")).toHaveLength(1);
  });

  test("a block without transactions needs no receipts; a missing block is null", async () => {
    const empty = scriptedNode({ eth_getBlockByNumber: ([height]) => (height === "0x7" ? { ...BLOCK, transactions: [] } : null) });
    const source = createEthereumBlockSource(empty);
    expect(await source.blockAt(7)).toMatchObject({ hash: BLOCK_HASH, transactions: [] });
    expect(await source.blockAt(8)).toBeNull();
    expect(empty.calls).toEqual(["eth_getBlockByNumber", "eth_getBlockByNumber"]);
  });
});

// Traces of the two transactions of BLOCK, by tracer.
const WATCHED = "0x" + "aa".repeat(20);
const callTrace = (hash: string, inner: unknown[] = []) => ({
  txHash: hash,
  result: { type: "CALL", from: "0xa1", to: "0xb2", value: "0x1", calls: inner },
});
const parityTrace = (hash: string, traceAddress: number[], to = "0xb2", blockHash = BLOCK_HASH) => ({
  type: "call",
  action: { callType: "call", from: traceAddress.length ? "0xb2" : "0xa1", to, value: "0x5" },
  traceAddress,
  transactionHash: hash,
  blockHash,
});
/** What VALUE_FRAME_TRACER answers for one transaction. */
const ownTrace = (hash: string, frames: unknown[], suspect = false) => ({ txHash: hash, result: { from: "0xa1", frames, suspect } });
const rpcError = (code: number, message: string) => () => {
  throw new NodeRpcError({ id: "eth", name: "Ethereum" }, "debug_traceBlockByHash", code, message, "node_error");
};
const traced = (traces: (params: readonly unknown[]) => unknown, method = "debug_traceBlockByHash") =>
  scriptedNode({ eth_getBlockByNumber: () => BLOCK, eth_getBlockReceipts: () => [receipt("0x01"), receipt("0x02")], [method]: traces });

describe("with call tracing on, an Ethereum block is returned only with one call trace per transaction, of that block", () => {
  test("debug mode: each transaction gets the ether its contracts moved, from the block's callTracer traces", async () => {
    let asked: readonly unknown[] = [];
    const node = traced((params) => {
      asked = params;
      return [callTrace("0x01", [{ type: "CALL", from: "0xb2", to: WATCHED, value: "0x2" }]), callTrace("0x02")];
    });
    const block = await createEthereumBlockSource(node, { traceMode: "debug" }).blockAt(7);
    expect(asked).toEqual([BLOCK_HASH, { tracer: "callTracer" }]);
    expect(block?.transactions.map((t) => t.internalTransfers)).toEqual([
      [{ type: "CALL", from: "0xb2", to: WATCHED, value: "0x2", index: 1, traceAddress: "0" }],
      [],
    ]);
  });

  test("parity mode: trace_block by number, grouped per transaction, rewards left out", async () => {
    const node = traced(
      () => [
        parityTrace("0x01", []),
        parityTrace("0x01", [0], WATCHED),
        parityTrace("0x02", []),
        { type: "reward", action: {}, traceAddress: [], transactionHash: null, blockHash: BLOCK_HASH },
      ],
      "trace_block",
    );
    const block = await createEthereumBlockSource(node, { traceMode: "parity" }).blockAt(7);
    expect(block?.transactions.map((t) => t.internalTransfers?.map((f) => f.to))).toEqual([[WATCHED], []]);
  });

  test("off: no trace call, no internal transfers", async () => {
    const node = traced(() => {
      throw new Error("must not be called");
    });
    const block = await createEthereumBlockSource(node, { traceMode: "off" }).blockAt(7);
    expect(node.calls).not.toContain("debug_traceBlockByHash");
    expect(block?.transactions.every((t) => t.internalTransfers === undefined)).toBe(true);
  });

  const notReady: Array<[string, (params: readonly unknown[]) => unknown, RegExp]> = [
    ["null", () => null, /answered no list/],
    ["fewer traces than transactions", () => [callTrace("0x01")], /1 call traces for 2 transactions/],
    ["a trace of another transaction", () => [callTrace("0x01"), callTrace("0x03")], /call trace 1 is of 0x03, not of 0x02/],
    ["a per-transaction tracer error", () => [callTrace("0x01"), { txHash: "0x02", error: "execution timeout" }], /trace of 0x02 failed/],
    ["a trace without its result", () => [callTrace("0x01"), { txHash: "0x02" }], /call trace 1 has no result/],
    ["an unreadable trace", () => [callTrace("0x01"), { txHash: "0x02", result: { from: "0xa1" } }], /unreadable call trace/],
    ["an error answer (a tracer timeout)", rpcError(-32000, "execution timeout"), /answered -32000 execution timeout/],
  ];
  test.each(notReady)("%s: the block is not ready (waited for, never matched without its traces)", async (_name, traces, reason) => {
    const refusals: Array<string | null> = [];
    const source = createEthereumBlockSource(traced(traces), { traceMode: "debug", onCallTraces: (r) => refusals.push(r) });
    const error = await source.blockAt(7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockNotReadyError);
    expect((error as Error).message).toMatch(reason);
    expect(refusals.filter((r) => r !== null)).toEqual([]);
  });

  test("parity traces of another block (a reorg between the two calls) are not ready", async () => {
    const node = traced(() => [parityTrace("0x01", [], "0xb2", "0xother"), parityTrace("0x02", [])], "trace_block");
    await expect(createEthereumBlockSource(node, { traceMode: "parity" }).blockAt(7)).rejects.toThrow(/answered for block 0xother/);
  });

  test("a node that refuses the trace method is reported once, waited for, and reported healed when it traces", async () => {
    const refusals: Array<string | null> = [];
    let refuse = true;
    const node = traced(() =>
      refuse
        ? rpcError(-32601, "the method debug_traceBlockByHash does not exist/is not available")()
        : [callTrace("0x01"), callTrace("0x02")],
    );
    const source = createEthereumBlockSource(node, { traceMode: "debug", onCallTraces: (r) => refusals.push(r) });
    await expect(source.blockAt(7)).rejects.toBeInstanceOf(BlockNotReadyError);
    await expect(source.blockAt(7)).rejects.toBeInstanceOf(BlockNotReadyError);
    expect(refusals).toEqual([expect.stringMatching(/refuses debug_traceBlockByHash/)]);
    refuse = false;
    await expect(source.blockAt(7)).resolves.toBeTruthy();
    expect(refusals).toHaveLength(2);
    expect(refusals[1]).toBeNull();
  });

  test("'block not found' is a block not ready, not a refused method", async () => {
    const refusals: Array<string | null> = [];
    const source = createEthereumBlockSource(traced(rpcError(-32000, `block ${BLOCK_HASH} not found`)), {
      traceMode: "debug",
      onCallTraces: (r) => refusals.push(r),
    });
    await expect(source.blockAt(7)).rejects.toBeInstanceOf(BlockNotReadyError);
    expect(refusals).toEqual([]);
  });
});

describe("ETH_TRACE_MODE=js: chaingate's own tracer, with callTracer behind it", () => {
  test("js mode: chaingate's own tracer is sent, and its list of value frames read", async () => {
    let asked: readonly unknown[] = [];
    const node = traced((params) => {
      asked = params;
      return [ownTrace("0x01", [[1, "0", "CALL", "0xb2", WATCHED, "0x2"]]), ownTrace("0x02", [])];
    });
    const block = await createEthereumBlockSource(node, { traceMode: "js" }).blockAt(7);
    expect(asked).toEqual([BLOCK_HASH, { tracer: VALUE_FRAME_TRACER }]);
    expect(block?.transactions.map((t) => t.internalTransfers)).toEqual([
      [{ type: "CALL", from: "0xb2", to: WATCHED, value: "0x2", index: 1, traceAddress: "0" }],
      [],
    ]);
  });

  test("js mode: a transaction the tracer marks suspect has its block read again with callTracer, whose frames are kept", async () => {
    const tracers: unknown[] = [];
    const node = traced((params) => {
      const { tracer } = params[1] as { tracer: string };
      tracers.push(tracer === "callTracer" ? "callTracer" : "own");
      if (tracer !== "callTracer") return [ownTrace("0x01", [[1, "0", "CALL", "0xa1", "0xb2", "0x1"]], true), ownTrace("0x02", [])];
      return [callTrace("0x01", [{ type: "SELFDESTRUCT", from: "0xb2", to: WATCHED, value: "0x9" }]), callTrace("0x02")];
    });
    const block = await createEthereumBlockSource(node, { traceMode: "js" }).blockAt(7);
    expect(tracers).toEqual(["own", "callTracer"]);
    expect(block?.transactions[0]?.internalTransfers).toEqual([
      { type: "SELFDESTRUCT", from: "0xb2", to: WATCHED, value: "0x9", index: 1, traceAddress: "0" },
    ]);
  });

  test("js mode: a node that will not run a custom tracer is reported as refusing, and waited for", async () => {
    const refusals: Array<string | null> = [];
    const source = createEthereumBlockSource(traced(rpcError(-32000, "tracer not found")), {
      traceMode: "js",
      onCallTraces: (r) => refusals.push(r),
    });
    await expect(source.blockAt(7)).rejects.toBeInstanceOf(BlockNotReadyError);
    expect(refusals).toEqual([expect.stringMatching(/refuses debug_traceBlockByHash: tracer not found/)]);
  });
});
