/**
 * The conformance of POST /api/v1/eth/jsonrpc at the proxy's internal edge against Hardhat. A
 * recording relay sits between the proxy and the node: a refused call must leave no trace there,
 * and a refused state-changing method must leave the chain as it was. Run unchanged for Ethereum
 * and each configured EVM chain's prefix (http/post-jsonrpc*.int.test.ts). Imports vitest: not
 * re-exported from testing/index.ts.
 */
import { Transaction, Wallet, parseEther, toQuantity } from "ethers";
import { describe, expect } from "vitest";
import { ETH_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";
import type { EthStack, EthStackChain } from "./start-eth-stack.ts";
import { ethProxyTest } from "./eth-proxy-fixtures.ts";

/** One of each family the proxy must never forward. */
const REFUSED_METHODS = [
  [
    "eth_sendTransaction",
    [{ from: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", value: "0x1" }],
  ],
  ["eth_sign", ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xdeadbeef"]],
  ["eth_signTransaction", [{ from: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" }]],
  ["eth_signTypedData_v4", ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "{}"]],
  ["eth_accounts", []],
  ["personal_sign", ["0xdeadbeef", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"]],
  ["personal_unlockAccount", ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "", 0]],
  ["admin_peers", []],
  ["debug_traceTransaction", [`0x${"00".repeat(32)}`]],
  ["miner_start", []],
  ["txpool_content", []],
  ["hardhat_mine", ["0x10"]],
  ["hardhat_setBalance", ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0x0"]],
  ["evm_mine", []],
  ["evm_setAutomine", [false]],
  ["evm_snapshot", []],
  ["eth_newFilter", [{}]],
  ["eth_newBlockFilter", []],
  ["eth_getFilterChanges", ["0x1"]],
  ["eth_uninstallFilter", ["0x1"]],
  ["eth_subscribe", ["newHeads"]],
  ["eth_coinbase", []],
  ["ETH_CHAINID", []],
  ["no_such_method", []],
] as const;

const it = ethProxyTest;

/** A JSON-RPC call at the internal edge of the file's stack. */
const rpc = async (stack: EthStack, body: unknown) => {
  const response = await stack.request(`${stack.base}/jsonrpc`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

/** Every JSON-RPC conformance test, for the chain of the file's stack (its `ethStackSettings`). */
export function jsonRpcConformance(chain: EthStackChain): void {
  describe(`eth-proxy POST /api/v1/${chain.prefix}/jsonrpc (Hardhat)`, () => {
    it("forwards an allowed call and answers with the node's envelope", async ({ ethStack: stack }) => {
      expect(await rpc(stack, { jsonrpc: "2.0", id: "chain", method: "eth_chainId" })).toEqual({
        status: 200,
        body: { jsonrpc: "2.0", id: "chain", result: toQuantity(stack.node.chainId) },
      });
      expect(await rpc(stack, { jsonrpc: "2.0", id: 2, method: "eth_blockNumber", params: [] })).toEqual({
        status: 200,
        body: { jsonrpc: "2.0", id: 2, result: await stack.node.rpc("eth_blockNumber") },
      });
      // The node's own refusal stays inside a 200, with its code.
      const refused = await rpc(stack, { jsonrpc: "2.0", id: 3, method: "eth_getBalance", params: ["0x12"] });
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32602 } });
    });

    it.for(REFUSED_METHODS)("refuses %s with 403 -32601 without contacting the node", async ([method, params], { ethStack: stack }) => {
      const relayed = stack.relay.bodies().length;
      const blockNumber = await stack.node.rpc("eth_blockNumber");
      const { status, body } = await rpc(stack, { jsonrpc: "2.0", id: 41, method, params });
      expect(status).toBe(403);
      expect(body).toEqual({ error: { code: -32601, message: expect.stringContaining(method) as string }, id: 41 });
      expect(body).not.toHaveProperty("result");
      expect(stack.relay.bodies().length).toBe(relayed);
      // Nothing the method would have done happened.
      expect(await stack.node.rpc("eth_blockNumber")).toBe(blockNumber);
      expect(await stack.node.rpc("eth_getBalance", ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "latest"])).not.toBe("0x0");
    });

    it("answers a batch in the node's order with every id echoed, in one node request", async ({ ethStack: stack }) => {
      const relayed = stack.relay.bodies().length;
      const address = stack.node.accounts[0]!.address;
      const { status, body } = await rpc(stack, [
        { jsonrpc: "2.0", id: "a", method: "eth_chainId" },
        { jsonrpc: "2.0", id: 7, method: "eth_getBalance", params: [address, "latest"] },
        { jsonrpc: "2.0", id: 0, method: "net_version", params: [] },
        { jsonrpc: "2.0", id: "bad", method: "eth_getBlockByNumber", params: ["nope", false] },
      ]);
      expect(status).toBe(200);
      const answers = body as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
      expect(answers.map((answer) => answer.id)).toEqual(["a", 7, 0, "bad"]);
      expect(answers[0]!.result).toBe(toQuantity(stack.node.chainId));
      expect(answers[1]!.result).toBe(await stack.node.rpc("eth_getBalance", [address, "latest"]));
      expect(answers[2]!.result).toBe(String(stack.node.chainId));
      expect(answers[3]!.error?.code).toBe(-32602);
      expect(stack.relay.bodies().length).toBe(relayed + 1);
    });

    it(`caps a batch at ${ETH_JSONRPC_MAX_BATCH_CALLS} calls, and refuses a whole batch for one refused or malformed call, without contacting the node`, async ({
      ethStack: stack,
    }) => {
      const call = (id: number) => ({ jsonrpc: "2.0", id, method: "eth_chainId" });
      const full = await rpc(
        stack,
        Array.from({ length: ETH_JSONRPC_MAX_BATCH_CALLS }, (_, i) => call(i)),
      );
      expect(full.status).toBe(200);
      expect((full.body as Array<{ id: number }>).map((answer) => answer.id)).toEqual(
        Array.from({ length: ETH_JSONRPC_MAX_BATCH_CALLS }, (_, i) => i),
      );

      const relayed = stack.relay.bodies().length;
      const over = await rpc(
        stack,
        Array.from({ length: ETH_JSONRPC_MAX_BATCH_CALLS + 1 }, (_, i) => call(i)),
      );
      expect(over).toEqual({
        status: 400,
        body: { error: { code: -32600, message: expect.stringContaining(String(ETH_JSONRPC_MAX_BATCH_CALLS)) as string }, id: null },
      });
      const mixed = await rpc(stack, [call(1), { jsonrpc: "2.0", id: 2, method: "evm_mine" }, call(3)]);
      expect(mixed).toEqual({
        status: 403,
        body: { error: { code: -32601, message: expect.stringContaining("evm_mine") as string }, id: null },
      });
      const empty = await rpc(stack, []);
      expect(empty).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
      const malformed = await rpc(stack, [call(1), { jsonrpc: "2.0", id: 2 }]);
      expect(malformed).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
      expect((empty.body as { error: { message: string } }).error.message).not.toBe(
        (malformed.body as { error: { message: string } }).error.message,
      );
      expect(await rpc(stack, "{not json")).toEqual({
        status: 400,
        body: { error: { code: -32700, message: expect.any(String) as string }, id: null },
      });
      expect(await rpc(stack, { jsonrpc: "2.0", id: 5, method: 12 })).toMatchObject({
        status: 400,
        body: { error: { code: -32600 }, id: 5 },
      });
      expect(stack.relay.bodies().length).toBe(relayed);
    });

    it("broadcasts an ethers-signed transaction through eth_sendRawTransaction", async ({ ethStack: stack }) => {
      const wallet = new Wallet(stack.node.accounts[6]!.privateKey);
      const to = Wallet.createRandom().address;
      const signed = await wallet.signTransaction({
        type: 2,
        chainId: stack.node.chainId,
        nonce: Number(await stack.node.rpc("eth_getTransactionCount", [wallet.address, "pending"])),
        to,
        value: parseEther("0.5"),
        gasLimit: 21_000n,
        maxFeePerGas: BigInt(await stack.node.rpc<string>("eth_gasPrice")) * 2n,
        maxPriorityFeePerGas: 1n,
      });
      const hash = Transaction.from(signed).hash;
      expect(await rpc(stack, { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: [signed] })).toEqual({
        status: 200,
        body: { jsonrpc: "2.0", id: 1, result: hash },
      });
      expect(await stack.node.rpc("eth_getBalance", [to, "latest"])).toBe(`0x${parseEther("0.5").toString(16)}`);
    });
  });
}
