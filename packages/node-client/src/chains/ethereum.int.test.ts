/**
 * The shared client against a real JSON-RPC 2.0 node (Hardhat Network): geth's envelope order
 * (`jsonrpc` and `id` before `result`), errors inside HTTP 200, a block with hundreds of full
 * transactions streamed out of its envelope.
 */
import type { Readable } from "node:stream";
import { describe, expect } from "vitest";
import { freePort, type HardhatNode } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { createNodeClient } from "../create-node-client.ts";
import type { NodeClient } from "../node-client.ts";
import { NodeRpcError } from "../node-errors.ts";
import { ethereum } from "./ethereum.ts";

/** Transactions in the big block: enough that its JSON spans many chunks. */
const BLOCK_TRANSACTIONS = 300;

async function collect(body: Readable): Promise<{ text: string; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(Buffer.from(chunk as Uint8Array));
  return { text: Buffer.concat(parts).toString("utf8"), chunks: parts.length };
}

/** The file's Hardhat node holding one block of BLOCK_TRANSACTIONS transfers, and a client of it. */
interface HardhatWithBigBlock {
  node: HardhatNode;
  client: NodeClient;
  bigBlock: string;
}

const it = integrationTest.extend<{ hardhatWithBigBlock: HardhatWithBigBlock }>({
  hardhatWithBigBlock: [
    async ({ hardhat: node }, use) => {
      const client = createNodeClient({ chain: ethereum, urls: [node.url] });
      // One block holding many transfers: mining paused while they queue.
      await node.rpc("evm_setAutomine", [false]);
      const [from, to] = node.accounts;
      for (let i = 0; i < BLOCK_TRANSACTIONS; i++) {
        await node.rpc("eth_sendTransaction", [{ from: from!.address, to: to!.address, value: "0x1", gas: "0x5208" }]);
      }
      await node.rpc("evm_mine");
      await node.rpc("evm_setAutomine", [true]);
      try {
        await use({ node, client, bigBlock: await node.rpc<string>("eth_blockNumber") });
      } finally {
        await client.close();
      }
    },
    { scope: "file" },
  ],
});

describe("createNodeClient(ethereum) against Hardhat Network", () => {
  it("reads results of JSON-RPC 2.0 calls", async ({ hardhatWithBigBlock: { client, bigBlock } }) => {
    expect(await client.call<string>("eth_chainId")).toBe("0x7a69");
    expect(await client.call<string>("eth_blockNumber")).toBe(bigBlock);
  });

  it("streams a block with full transactions out of geth-ordered envelopes, byte-equal to the node's result", async ({
    hardhatWithBigBlock: { node, client, bigBlock },
  }) => {
    const body = await client.callStreamed("eth_getBlockByNumber", [bigBlock, true]);
    const { text, chunks } = await collect(body);
    expect(chunks).toBeGreaterThan(1);
    const block = JSON.parse(text) as { number: string; transactions: unknown[] };
    expect(block).toEqual(await node.rpc("eth_getBlockByNumber", [bigBlock, true]));
    expect(block.transactions).toHaveLength(BLOCK_TRANSACTIONS);
    // The raw envelope really has jsonrpc and id first: the old byte-matching unwrapper could not serve it.
    const raw = await client.callRaw(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }));
    expect((await collect(raw.body)).text).toMatch(/^\{"jsonrpc":"2\.0","id":1,"result":/);
  });

  it("streams a null result (an unknown transaction) and a string result", async ({ hardhatWithBigBlock: { client } }) => {
    expect((await collect(await client.callStreamed("eth_getTransactionByHash", [`0x${"00".repeat(32)}`]))).text).toBe("null");
    expect((await collect(await client.callStreamed("eth_chainId"))).text).toBe('"0x7a69"');
  });

  it("throws the node's refusal with its code and the chain's reason, streamed or not", async ({ hardhatWithBigBlock: { client } }) => {
    // One call at a time: a second call made up front could be refused before anyone awaits it (an unhandled rejection).
    const calls = [() => client.call("eth_getBalance", ["0x0", "latest"]), () => client.callStreamed("eth_getBlockByHash", ["0x12", true])];
    for (const refused of calls) {
      const error = await refused().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NodeRpcError);
      expect(error).toMatchObject({ code: "eth_node_rpc_error", rpcCode: -32602, reason: "invalid_argument" });
    }
  });

  it("fails over from a dead URL to the node", async ({ hardhatWithBigBlock: { node } }) => {
    const failover = createNodeClient({ chain: ethereum, urls: [`http://127.0.0.1:${await freePort()}`, node.url] });
    try {
      expect(await failover.call("eth_chainId")).toBe("0x7a69");
      expect(failover.upstreams().map((upstream) => upstream.healthy)).toEqual([false, true]);
    } finally {
      await failover.close();
    }
  });
});
