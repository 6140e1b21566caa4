/**
 * The fault proxy in front of a real Hardhat node, as a client sees it through the shared node
 * client: transparent without faults, a lagging tip with the blocks above it missing, receipts
 * answered null, batches rewritten call by call, timeouts and dropped connections, and the
 * load-balancer alternation reproducible from its seed.
 */
import { createNodeClient, ethereum, NodeUnreachableError, type NodeClient } from "@chaingate/node-client";
import { describe, expect } from "vitest";
import { integrationTest } from "./fixtures/integration-test.ts";
import type { HardhatNode } from "./hardhat-node.ts";
import { NO_FAULTS, startNodeFaultProxy, type NodeFaultProxy } from "./node-fault-proxy.ts";

interface EthFaultProxy {
  node: HardhatNode;
  proxy: NodeFaultProxy;
  client: NodeClient;
  /** Two blocks with a transaction each; the second is the tip. */
  txids: string[];
}

const clientOf = (url: string, timeoutMs = 5_000) => createNodeClient({ chain: ethereum, urls: [url], timeoutMs, coolDownMs: 0 });
const quantity = (height: number) => `0x${height.toString(16)}`;
const tip = async (node: HardhatNode) => Number(await node.rpc<string>("eth_blockNumber"));

/** The file's Hardhat node, two blocks up, behind a proxy and its client; each test gets the proxy without faults, counters at zero. */
const test = integrationTest.extend<{ ethFaultProxy: EthFaultProxy; ethProxied: EthFaultProxy }>({
  ethFaultProxy: [
    async ({ hardhat: node }, use) => {
      const [payer, payee] = node.accounts as [HardhatNode["accounts"][0], HardhatNode["accounts"][0]];
      const txids: string[] = [];
      for (let i = 0; i < 2; i++)
        txids.push(await node.rpc<string>("eth_sendTransaction", [{ from: payer.address, to: payee.address, value: "0x1" }]));
      const proxy = await startNodeFaultProxy({ chain: "ethereum", upstream: node.url, seed: 1 });
      const client = clientOf(proxy.url);
      try {
        await use({ node, proxy, client, txids });
      } finally {
        await client.close();
        await proxy.stop();
      }
    },
    { scope: "file" },
  ],
  ethProxied: async ({ ethFaultProxy }, use) => {
    ethFaultProxy.proxy.setFaults(NO_FAULTS);
    ethFaultProxy.proxy.resetCounters();
    await use(ethFaultProxy);
  },
});

describe("the node fault proxy in front of Hardhat", () => {
  test("without faults it is transparent: the node's answers, a batch included", async ({ ethProxied: { node, proxy, client, txids } }) => {
    const height = await tip(node);
    expect(await client.call("eth_blockNumber")).toBe(quantity(height));
    expect(await client.call("eth_getBlockByNumber", [quantity(height), true])).toEqual(
      await node.rpc("eth_getBlockByNumber", [quantity(height), true]),
    );
    // Hardhat 2 lacks eth_getBlockReceipts: the proxy answers it with the node's own receipts.
    expect(await client.call("eth_getBlockReceipts", [quantity(height)])).toEqual([
      await node.rpc("eth_getTransactionReceipt", [txids[1]]),
    ]);
    const batch = JSON.stringify([
      { jsonrpc: "2.0", id: 7, method: "eth_blockNumber", params: [] },
      { jsonrpc: "2.0", id: "b", method: "eth_getTransactionReceipt", params: [txids[1]] },
    ]);
    const direct = await (await fetch(node.url, { method: "POST", headers: { "content-type": "application/json" }, body: batch })).json();
    expect(await (await fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body: batch })).json()).toEqual(
      direct,
    );
    expect(proxy.counters()).toMatchObject({
      requests: 4,
      lagged: 0,
      missingBlocks: 0,
      nullReceipts: 0,
      timeouts: 0,
      dropsBeforeAnswer: 0,
      dropsMidAnswer: 0,
    });
  });

  test("lag: the tip is N blocks behind and the blocks above it do not exist (null), by number, hash, receipts and 'latest'", async ({
    ethProxied: { node, proxy, client, txids },
  }) => {
    const height = await tip(node);
    const newest = await node.rpc<{ hash: string }>("eth_getBlockByNumber", [quantity(height), false]);
    proxy.setFaults({ lag: 1 });
    expect(await client.call("eth_blockNumber")).toBe(quantity(height - 1));
    expect(await client.call("eth_getBlockByNumber", [quantity(height), false])).toBeNull();
    expect(await client.call("eth_getBlockByHash", [newest.hash, false])).toBeNull();
    expect(await client.call("eth_getBlockReceipts", [newest.hash])).toBeNull();
    expect(await client.call("eth_getTransactionReceipt", [txids[1]])).toBeNull();
    expect(await client.call("eth_getBlockByNumber", ["latest", false])).toMatchObject({ number: quantity(height - 1) });
    // Below the served tip the node's own answers.
    expect(await client.call("eth_getTransactionReceipt", [txids[0]])).toMatchObject({ transactionHash: txids[0], status: "0x1" });
    expect(proxy.counters()).toMatchObject({ requests: 7, lagged: 7, missingBlocks: 4 });
  });

  test("nullReceipts: eth_getBlockReceipts answers null for a block the node has; the rest is untouched", async ({
    ethProxied: { node, proxy, client, txids },
  }) => {
    const height = await tip(node);
    proxy.setFaults({ nullReceipts: 1 });
    expect(await client.call("eth_getBlockByNumber", [quantity(height), false])).toMatchObject({ number: quantity(height) });
    expect(await client.call("eth_getBlockReceipts", [quantity(height)])).toBeNull();
    proxy.setFaults({ nullReceipts: 0 });
    expect(await client.call("eth_getBlockReceipts", [quantity(height)])).toEqual([expect.objectContaining({ transactionHash: txids[1] })]);
    expect(proxy.counters().nullReceipts).toBe(1);
  });

  test("a batch is rewritten call by call, ids kept", async ({ ethProxied: { node, proxy, client } }) => {
    const height = await tip(node);
    proxy.setFaults({ lag: 1, nullReceipts: 1 });
    const response = await client.callRaw(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: 2, method: "eth_getBlockByNumber", params: [quantity(height), false] },
        { jsonrpc: "2.0", id: 3, method: "eth_getBlockByNumber", params: [quantity(height - 1), false] },
        { jsonrpc: "2.0", id: 4, method: "eth_getBlockReceipts", params: [quantity(height - 1)] },
        { jsonrpc: "2.0", id: 5, method: "eth_chainId", params: [] },
      ]),
    );
    const answers = JSON.parse(await new Response(response.body as unknown as ReadableStream).text()) as Array<{
      id: number;
      result: unknown;
    }>;
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: quantity(height - 1) },
      { jsonrpc: "2.0", id: 2, result: null },
      { jsonrpc: "2.0", id: 3, result: expect.objectContaining({ number: quantity(height - 1) }) },
      { jsonrpc: "2.0", id: 4, result: null },
      { jsonrpc: "2.0", id: 5, result: quantity(node.chainId) },
    ]);
    expect(proxy.counters()).toMatchObject({ requests: 1, missingBlocks: 1, nullReceipts: 1 });
  });
});

// Faults that cost the client its answer: held and dropped connections, alternating backends.
describe("the node fault proxy in front of Hardhat", () => {
  test("timeout: the request is held past the client's timeout; drop: the connection is destroyed; both reach the client as an unreachable node", async ({
    ethProxied: { node, proxy },
  }) => {
    const impatient = clientOf(proxy.url, 300);
    try {
      proxy.setFaults({ timeout: 1, holdMs: 2_000 });
      const started = Date.now();
      await expect(impatient.call("eth_blockNumber")).rejects.toBeInstanceOf(NodeUnreachableError);
      expect(Date.now() - started).toBeLessThan(1_500);
      proxy.setFaults({ timeout: 0, drop: 1 });
      for (let i = 0; i < 6; i++) await expect(impatient.call("eth_blockNumber")).rejects.toBeInstanceOf(NodeUnreachableError);
      const counters = proxy.counters();
      expect(counters.timeouts).toBe(1);
      // Each drop happens before the answer or halfway through it (the seed decides which).
      expect(counters.dropsBeforeAnswer + counters.dropsMidAnswer).toBeGreaterThanOrEqual(6);
      expect(counters.dropsBeforeAnswer).toBeGreaterThan(0);
      expect(counters.dropsMidAnswer).toBeGreaterThan(0);
      proxy.setFaults({ drop: 0 });
      expect(await impatient.call("eth_blockNumber")).toBe(quantity(await tip(node)));
    } finally {
      await impatient.close();
    }
  });

  test("alternate: a load balancer's backends one block apart, answered at random; the same seed gives the same sequence", async ({
    ethProxied: { node },
  }) => {
    const height = await tip(node);
    const sequence = async (seed: number) => {
      const alternating = await startNodeFaultProxy({
        chain: "ethereum",
        upstream: node.url,
        seed,
        faults: { alternate: { probability: 0.5, lag: 1 } },
      });
      const through = clientOf(alternating.url);
      try {
        const tips: number[] = [];
        for (let i = 0; i < 24; i++) tips.push(Number(await through.call<string>("eth_blockNumber")) - height);
        return { tips, counters: alternating.counters() };
      } finally {
        await through.close();
        await alternating.stop();
      }
    };
    const first = await sequence(42);
    expect(new Set(first.tips)).toEqual(new Set([0, -1]));
    expect(first.counters.alternated).toBe(first.tips.filter((offset) => offset === -1).length);
    expect((await sequence(42)).tips).toEqual(first.tips);
    expect((await sequence(43)).tips).not.toEqual(first.tips);
  });
});
