/** The /jsonrpc subset: reads work, java-tron's refused methods answer -32601. */
import { describe, expect } from "vitest";
import type { TronDevnode } from "./index.ts";
import { REFUSED_METHODS } from "./json-rpc.ts";
import { devnodeTest } from "./test-devnode.ts";

/** The file's chain: one USDT transfer from alice to bob, mined before the first test (head 2). */
const it = devnodeTest.extend<{ usdtTransferTxid: string }>({
  usdtTransferTxid: [
    async ({ devnode, tronWeb, bob }, use) => {
      const usdt = await tronWeb.contract().at("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
      const txid: string = await usdt.transfer(bob.base58, 123).send({ feeLimit: 100_000_000 });
      await devnode.produceBlock();
      await use(txid);
    },
    // auto: every test reads the chain this transfer made (eth_blockNumber is 0x2), named or not.
    { scope: "file", auto: true },
  ],
});

async function rpc(
  devnode: TronDevnode,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(`${devnode.url}/jsonrpc`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe("/jsonrpc", () => {
  it("answers chain identity and head", async ({ devnode }) => {
    const chainId = (await rpc(devnode, "eth_chainId")).result;
    expect(chainId).toMatch(/^0x[0-9a-f]{8}$/);
    expect((await rpc(devnode, "net_version")).result).toBe(chainId);
    const genesis = (await rpc(devnode, "eth_getBlockByNumber", ["0x0", false])).result as { hash: string };
    expect(chainId).toBe("0x" + genesis.hash.slice(-8));
    expect((await rpc(devnode, "eth_blockNumber")).result).toBe("0x2");
    expect((await rpc(devnode, "eth_gasPrice")).result).toBe("0x64");
  });

  it("reads balances (sun) and TRC-20 state through eth_call", async ({ devnode, bob }) => {
    const balance = BigInt((await rpc(devnode, "eth_getBalance", ["0x" + bob.hex.slice(2), "latest"])).result as string);
    expect(balance).toBe(BigInt(bob.balanceSun));
    const data = "0x70a08231" + "0".repeat(24) + bob.hex.slice(2);
    const result = (await rpc(devnode, "eth_call", [{ to: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c", data }, "latest"]))
      .result as string;
    expect(BigInt(result)).toBe(BigInt(bob.trc20.TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ?? 0) + 123n);
    expect((await rpc(devnode, "eth_getBalance", ["0x" + bob.hex.slice(2), "earliest"])).error?.code).toBe(-32602);
  });

  it("serves blocks, transactions and receipts with the Transfer log", async ({ devnode, alice, usdtTransferTxid }) => {
    const receipt = (await rpc(devnode, "eth_getTransactionReceipt", ["0x" + usdtTransferTxid])).result as {
      status: string;
      logs: { address: string; topics: string[] }[];
      blockNumber: string;
    };
    expect(receipt.status).toBe("0x1");
    expect(receipt.logs[0]?.address).toBe("0xa614f803b6fd780986a42c78ec9c7f77e6ded13c");
    expect(receipt.logs[0]?.topics[0]).toBe("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
    const block = (await rpc(devnode, "eth_getBlockByNumber", [receipt.blockNumber, true])).result as {
      transactions: { hash: string; from: string }[];
    };
    expect(block.transactions[0]).toMatchObject({ hash: "0x" + usdtTransferTxid, from: "0x" + alice.hex.slice(2) });
    const logs = (
      await rpc(devnode, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest", address: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c" }])
    ).result as unknown[];
    expect(logs).toHaveLength(1);
    expect((await rpc(devnode, "eth_getTransactionByHash", ["0x" + "00".repeat(32)])).result).toBeNull();
  });

  for (const method of REFUSED_METHODS) {
    it(`refuses ${method} with -32601 as java-tron does`, async ({ devnode }) => {
      expect((await rpc(devnode, method, [])).error).toMatchObject({
        code: -32601,
        message: `the method ${method} does not exist/is not available`,
      });
    });
  }

  it("answers unknown methods and malformed bodies with JSON-RPC errors", async ({ devnode }) => {
    expect((await rpc(devnode, "eth_nope")).error?.code).toBe(-32601);
    const response = await fetch(`${devnode.url}/jsonrpc`, { method: "POST", body: "{oops" });
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});
