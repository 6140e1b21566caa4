import { NodeRpcError, type NodeClient } from "@chaingate/node-client";
import { describe, expect, test } from "vitest";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";
import { createEthereumBlockSource } from "./ethereum-block-source.ts";

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
