/**
 * The fault proxy in front of a real litecoind (bitcoind's JSON-RPC), as a client sees it: the
 * node's bytes without faults (exact decimals), and a lagging node answering as bitcoind does for
 * heights and blocks it does not have, single calls and batches alike.
 */
import { bitcoin, createNodeClient, NodeRpcError, type NodeClient } from "@chaingate/node-client";
import { describe, expect } from "vitest";
import { integrationTest } from "./fixtures/integration-test.ts";
import type { LitecoindRegtest } from "./litecoind-regtest.ts";
import { NO_FAULTS, startNodeFaultProxy, type NodeFaultProxy } from "./node-fault-proxy.ts";

interface BtcFaultProxy {
  node: LitecoindRegtest;
  proxy: NodeFaultProxy;
  client: NodeClient;
}

const rawCall = async (node: LitecoindRegtest, url: string, body: unknown) => {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${node.rpcUser}:${node.rpcPassword}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
};

/** The file's litecoind with a block paying 0.00100547, behind a proxy and its client; each test gets the proxy without faults, counters at zero. */
const test = integrationTest.extend<{ btcFaultProxy: BtcFaultProxy; btcProxied: BtcFaultProxy }>({
  btcFaultProxy: [
    async ({ litecoind: node }, use) => {
      await node.fundAddress(await node.walletRpc<string>("getnewaddress"), "0.00100547");
      await node.mine(1);
      const proxy = await startNodeFaultProxy({ chain: "bitcoin", upstream: node.rpcUrl, seed: 7 });
      const client = createNodeClient({
        chain: bitcoin,
        urls: [proxy.url],
        auth: { user: node.rpcUser, password: node.rpcPassword },
        coolDownMs: 0,
      });
      try {
        await use({ node, proxy, client });
      } finally {
        await client.close();
        await proxy.stop();
      }
    },
    { scope: "file" },
  ],
  btcProxied: async ({ btcFaultProxy }, use) => {
    btcFaultProxy.proxy.setFaults(NO_FAULTS);
    btcFaultProxy.proxy.resetCounters();
    await use(btcFaultProxy);
  },
});

describe("the node fault proxy in front of litecoind", () => {
  test("without faults the answers are the node's bytes (a verbosity-2 block's decimals included), with the client's credentials", async ({
    btcProxied: { node, proxy, client },
  }) => {
    const hash = await node.rpc<string>("getbestblockhash");
    const call = { jsonrpc: "1.0", id: "x", method: "getblock", params: [hash, 2] };
    const direct = await rawCall(node, node.rpcUrl, call);
    expect(direct.text).toMatch(/"value":0\.00100547/);
    expect(await rawCall(node, proxy.url, call)).toEqual(direct);
    expect(await client.call("getblockcount")).toBe(await node.rpc("getblockcount"));
    expect(proxy.counters()).toMatchObject({ requests: 2, lagged: 0, missingBlocks: 0 });
  });

  test("lag: the tip is N blocks behind; getblockhash above it is -8 'Block height out of range' and getblock of a newer block -5, as bitcoind answers", async ({
    btcProxied: { node, proxy, client },
  }) => {
    const height = await node.rpc<number>("getblockcount");
    const newest = await node.rpc<string>("getblockhash", [height]);
    proxy.setFaults({ lag: 2 });
    expect(await client.call("getblockcount")).toBe(height - 2);
    expect(await client.call("getbestblockhash")).toBe(await node.rpc("getblockhash", [height - 2]));
    expect(await client.call("getblockhash", [height - 2])).toBe(await node.rpc("getblockhash", [height - 2]));
    await expect(client.call("getblockhash", [height - 1])).rejects.toMatchObject({
      name: "NodeRpcError",
      rpcCode: -8,
      rpcMessage: "Block height out of range",
    });
    await expect(client.call("getblock", [newest, 1])).rejects.toBeInstanceOf(NodeRpcError);
    await expect(client.call("getblock", [newest, 1])).rejects.toMatchObject({ rpcCode: -5, rpcMessage: "Block not found" });
    expect(proxy.counters()).toMatchObject({ requests: 6, lagged: 6, missingBlocks: 3, tipsRewritten: 2 });
    // The single-call error as bitcoind sends it: HTTP 500 with a 1.0 envelope.
    expect(await rawCall(node, proxy.url, { jsonrpc: "1.0", id: 3, method: "getblockhash", params: [height] })).toEqual({
      status: 500,
      text: JSON.stringify({ result: null, error: { code: -8, message: "Block height out of range" }, id: 3 }),
    });
  });

  test("a batch is answered call by call: the lag's errors in place, the node's answers kept", async ({ btcProxied: { node, proxy } }) => {
    const height = await node.rpc<number>("getblockcount");
    proxy.setFaults({ lag: 1 });
    const answer = await rawCall(node, proxy.url, [
      { jsonrpc: "1.0", id: 1, method: "getblockcount", params: [] },
      { jsonrpc: "1.0", id: 2, method: "getblockhash", params: [height] },
      { jsonrpc: "1.0", id: 3, method: "getblockhash", params: [height - 1] },
    ]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual([
      { result: height - 1, error: null, id: 1 },
      { result: null, error: { code: -8, message: "Block height out of range" }, id: 2 },
      { result: await node.rpc("getblockhash", [height - 1]), error: null, id: 3 },
    ]);
  });
});
