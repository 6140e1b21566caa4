/** java-tron parity (see java-tron-parity.int.test.ts): the limits /jsonrpc puts on block ranges and tags. */
import { describe, expect } from "vitest";
import type { TronDevnode } from "./index.ts";
import { devnodeTest } from "./test-devnode.ts";

const it = devnodeTest;
devnodeTest.scoped({ devnodeOptions: { jsonRpcMaxBlockRange: 3 } });

async function rpc(
  devnode: TronDevnode,
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(`${devnode.url}/jsonrpc`, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe("/jsonrpc limits (LogFilterWrapper, JsonRpcApiUtil.getByJsonBlockId)", () => {
  it("eth_getLogs: the block range is limited (maxBlockRange, 5000 by default), fromBlock <= toBlock, blockHash excludes a range and must exist", async ({
    devnode,
  }) => {
    for (let index = 0; index < 5; index += 1) await devnode.produceBlock();
    const head = await devnode.produceBlock();
    expect((await rpc(devnode, "eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x4" }])).result).toEqual([]);
    expect((await rpc(devnode, "eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x5" }])).error).toMatchObject({
      code: -32602,
      message: "exceed max block range: 3",
    });
    expect((await rpc(devnode, "eth_getLogs", [{ fromBlock: "0x1" }])).error).toMatchObject({
      code: -32602,
      message: "exceed max block range: 3",
    }); // to the head
    expect((await rpc(devnode, "eth_getLogs", [{ fromBlock: "0x4", toBlock: "0x2" }])).error).toMatchObject({
      code: -32602,
      message: "please verify: fromBlock <= toBlock",
    });
    expect((await rpc(devnode, "eth_getLogs", [{ blockHash: "0x" + head.blockID, fromBlock: "0x1" }])).error).toMatchObject({
      code: -32602,
      message: "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other",
    });
    expect((await rpc(devnode, "eth_getLogs", [{ blockHash: "0x" + "ab".repeat(32) }])).error).toMatchObject({
      code: -32602,
      message: "invalid blockHash",
    });
    expect((await rpc(devnode, "eth_getLogs", [{ blockHash: "0x" + head.blockID }])).result).toEqual([]);
  });

  it("the pending tag is refused with -32602; balance reads accept only latest", async ({ devnode, alice }) => {
    expect((await rpc(devnode, "eth_getLogs", [{ fromBlock: "pending" }])).error).toMatchObject({
      code: -32602,
      message: "TAG pending not supported",
    });
    expect((await rpc(devnode, "eth_getBlockByNumber", ["pending", false])).error).toMatchObject({
      code: -32602,
      message: "TAG pending not supported",
    });
    expect((await rpc(devnode, "eth_getBlockTransactionCountByNumber", ["pending"])).error).toMatchObject({
      code: -32602,
      message: "TAG pending not supported",
    });
    expect((await rpc(devnode, "eth_getBalance", ["0x" + alice.hex.slice(2), "pending"])).error).toMatchObject({
      code: -32602,
      message: "TAG [earliest | pending | finalized] not supported",
    });
    expect((await rpc(devnode, "eth_getBalance", ["0x" + alice.hex.slice(2), "0x1"])).error).toMatchObject({
      code: -32602,
      message: "QUANTITY not supported, just support TAG as latest",
    });
    expect((await rpc(devnode, "eth_getBlockByNumber", ["finalized", false])).result).toMatchObject({
      number: expect.stringMatching(/^0x/),
    });
  });
});
