/**
 * The fault proxy in front of the Tron simulator (java-tron's HTTP API), as a client sees it:
 * transparent without faults, a lagging node (tip behind, newer blocks `{}`, their infos `[]`), and
 * `gettransactioninfobyblocknum` answered `[]` for a block the node has, and a load balancer over
 * two simulators at different heights.
 */
import { createNodeClient, tron, type NodeClient } from "@chaingate/node-client";
import { startTronDevnode } from "@chaingate/tron-devnode";
import { describe, expect } from "vitest";
import type { DevnodeContext } from "@chaingate/tron-devnode/testing";
import { integrationTest } from "./fixtures/integration-test.ts";
import { NO_FAULTS, startNodeFaultProxy, type NodeFaultProxy } from "./node-fault-proxy.ts";

interface TronFaultProxy {
  node: DevnodeContext;
  proxy: NodeFaultProxy;
  client: NodeClient;
  /** The newest block, holding one TRX transfer. */
  head: { number: number; blockID: string; txid: string };
  post: (path: string, body?: object) => Promise<Record<string, unknown> | unknown[]>;
  direct: (path: string, body?: object) => Promise<string>;
  through: (path: string, body?: object) => Promise<string>;
}

/** The file's simulator with a block holding a TRX transfer, behind a proxy and its client; each test gets the proxy without faults, counters at zero. */
const test = integrationTest.extend<{ tronFaultProxy: TronFaultProxy; tronProxied: TronFaultProxy }>({
  tronFaultProxy: [
    async ({ tronAccounts: node }, use) => {
      const txid = (await node.tronWeb.trx.sendTransaction(node.bob.base58, 1_000_000)).transaction.txID;
      const head = { ...(await node.devnode.produceBlock()), txid };
      const proxy = await startNodeFaultProxy({ chain: "tron", upstream: node.devnode.url, seed: 3 });
      const client = createNodeClient({ chain: tron, urls: [proxy.url], coolDownMs: 0 });
      const text =
        (url: string) =>
        async (path: string, body: object = {}) =>
          (await fetch(`${url}${path}`, { method: "POST", body: JSON.stringify(body) })).text();
      try {
        await use({
          node,
          proxy,
          client,
          head,
          post: (path, body = {}) => client.request<Record<string, unknown> | unknown[]>(path, { method: "POST", body }),
          direct: text(node.devnode.url),
          through: text(proxy.url),
        });
      } finally {
        await client.close();
        await proxy.stop();
      }
    },
    { scope: "file" },
  ],
  tronProxied: async ({ tronFaultProxy }, use) => {
    tronFaultProxy.proxy.setFaults(NO_FAULTS);
    tronFaultProxy.proxy.resetCounters();
    await use(tronFaultProxy);
  },
});

describe("the node fault proxy in front of the Tron simulator", () => {
  test("without faults it is transparent: the node's bytes", async ({ tronProxied: { proxy, head, direct, through } }) => {
    for (const [path, body] of [
      ["/wallet/getnowblock", {}],
      ["/wallet/getblockbynum", { num: head.number }],
      ["/wallet/gettransactioninfobyblocknum", { num: head.number }],
      ["/wallet/getblock", { id_or_num: head.blockID, detail: false }],
    ] as const) {
      expect(await through(path, body)).toBe(await direct(path, body));
    }
    expect(proxy.counters()).toMatchObject({ requests: 4, lagged: 0, missingBlocks: 0, emptyTransactionInfo: 0 });
  });

  test("lag: getnowblock is the block N behind, newer blocks are {} by number and by id, their infos []", async ({
    tronProxied: { proxy, head, post },
  }) => {
    proxy.setFaults({ lag: 1 });
    expect(await post("/wallet/getnowblock")).toMatchObject({ block_header: { raw_data: { number: head.number - 1 } } });
    expect(await post("/wallet/getblockbynum", { num: head.number })).toEqual({});
    expect(await post("/wallet/getblock", { id_or_num: head.blockID, detail: false })).toEqual({});
    expect(await post("/wallet/getblock", { id_or_num: String(head.number), detail: false })).toEqual({});
    expect(await post("/wallet/gettransactioninfobyblocknum", { num: head.number })).toEqual([]);
    expect(await post("/wallet/getblockbynum", { num: head.number - 1 })).toMatchObject({
      block_header: { raw_data: { number: head.number - 1 } },
    });
    expect(proxy.counters()).toMatchObject({ requests: 6, lagged: 6, missingBlocks: 4, tipsRewritten: 1 });
  });

  test("emptyTransactionInfo: the infos of a block the node has answered [], the block itself untouched", async ({
    tronProxied: { proxy, head, post },
  }) => {
    proxy.setFaults({ emptyTransactionInfo: 1 });
    expect(await post("/wallet/getblockbynum", { num: head.number })).toMatchObject({
      blockID: head.blockID,
      transactions: [expect.objectContaining({ txID: head.txid })],
    });
    expect(await post("/wallet/gettransactioninfobyblocknum", { num: head.number })).toEqual([]);
    proxy.setFaults({ emptyTransactionInfo: 0 });
    expect(await post("/wallet/gettransactioninfobyblocknum", { num: head.number })).toEqual([
      expect.objectContaining({ id: head.txid, blockNumber: head.number }),
    ]);
    expect(proxy.counters().emptyTransactionInfo).toBe(1);
  });

  test("alternate with a second upstream: answers come from two real nodes at their own heights, at random, reproducibly from the seed", async ({
    tronProxied: { node },
  }) => {
    const behind = await startTronDevnode({ port: 0, blockIntervalMs: 0 });
    const sequence = async (seed: number) => {
      const balancer = await startNodeFaultProxy({
        chain: "tron",
        upstream: node.devnode.url,
        seed,
        faults: { alternate: { probability: 0.5, upstream: behind.url } },
      });
      const balanced = createNodeClient({ chain: tron, urls: [balancer.url], coolDownMs: 0 });
      try {
        const heads: number[] = [];
        for (let i = 0; i < 20; i++)
          heads.push(
            ((await balanced.request("/wallet/getnowblock")) as { block_header: { raw_data: { number: number } } }).block_header.raw_data
              .number,
          );
        return { heads, alternated: balancer.counters().alternated };
      } finally {
        await balanced.close();
        await balancer.stop();
      }
    };
    try {
      const behindHead = (await behind.produceBlock()).number;
      await node.devnode.produceBlock();
      const mainHead = (await node.devnode.produceBlock()).number;
      expect(behindHead).toBeLessThan(mainHead);
      const first = await sequence(5);
      expect(new Set(first.heads)).toEqual(new Set([mainHead, behindHead]));
      expect(first.alternated).toBe(first.heads.filter((number) => number === behindHead).length);
      expect((await sequence(5)).heads).toEqual(first.heads);
    } finally {
      await behind.close();
    }
  });
});
