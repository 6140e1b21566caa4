import { describe, expect } from "vitest";
import { AnvilRpcError, startAnvil } from "./anvil-node.ts";
import { integrationTest as it } from "./fixtures/integration-test.ts";
import { HARDHAT_ACCOUNT_COUNT, HARDHAT_CHAIN_ID } from "./hardhat-node.ts";
import { waitForPort } from "./processes.ts";

describe("startAnvil", () => {
  it("serves JSON-RPC on its url with Hardhat's chain id and dev accounts", async ({ anvil: node }) => {
    expect(node.url).toBe(`http://127.0.0.1:${node.port}`);
    expect(Number(await node.rpc<string>("eth_chainId"))).toBe(HARDHAT_CHAIN_ID);
    expect(node.accounts).toHaveLength(HARDHAT_ACCOUNT_COUNT);
    const unlocked = await node.rpc<string[]>("eth_accounts");
    expect(node.accounts.map((account) => account.address.toLowerCase())).toEqual(unlocked.map((address) => address.toLowerCase()));
    expect(node.accounts[0]).toMatchObject({
      address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
      balanceEth: 10_000,
    });
  });

  it("answers what Hardhat 2 refuses: call traces (both styles) and block receipts", async ({ anvil: node }) => {
    const [payer, payee] = node.accounts;
    const hash = await node.rpc<string>("eth_sendTransaction", [{ from: payer!.address, to: payee!.address, value: "0x10" }]);
    // Mined when the call returns, as on Hardhat (Anvil itself answers before its miner has run).
    expect(await node.rpc("eth_getTransactionReceipt", [hash])).toMatchObject({ status: "0x1" });
    const block = await node.rpc<{ hash: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
    const traces = await node.rpc<Array<{ txHash: string; result: { type: string; value: string } }>>("debug_traceBlockByHash", [
      block.hash,
      { tracer: "callTracer" },
    ]);
    expect(traces).toHaveLength(1);
    expect(traces[0]!.result).toMatchObject({ type: "CALL", value: "0x10" });
    expect(await node.rpc<unknown[]>("trace_block", [block.number])).toHaveLength(1);
    expect(await node.rpc<unknown[]>("eth_getBlockReceipts", [block.hash])).toHaveLength(1);
  });

  it("throws the node's error code for a refused call", async ({ anvil: node }) => {
    await expect(node.rpc("eth_getBalance", ["0x0"])).rejects.toBeInstanceOf(AnvilRpcError);
  });

  it("stops cleanly: the port closes", async ({ anvil: node }) => {
    const second = await startAnvil();
    expect(second.port).not.toBe(node.port);
    await second.stop();
    await waitForPort(second.port, false, 5_000);
  });
});
