/**
 * The shared client's endpoint checks (chain id, height) and the demotion of a node that falls
 * behind, against scripted Ethereum nodes.
 */
import { describe, expect, it } from "vitest";
import { NodeUnreachableError } from "./node-errors.ts";
import { ethereum } from "./chains/ethereum.ts";
import { createNodeClient } from "./create-node-client.ts";
import { json, useScriptedNodes } from "./testing/scripted-node-server.ts";

describe("createNodeClient for JSON-RPC 2.0 and plain HTTP JSON nodes", () => {
  const { serve, make } = useScriptedNodes(createNodeClient);

  describe("endpoint checks and demotion", () => {
    /** An Ethereum node of chain `chainId` whose tip is `height`; `calls` counts what it was asked. */
    const ethNode = async (chainId: string, height: number) => {
      const calls: string[] = [];
      let up = true;
      const url = await serve((_request, body, response) => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        calls.push(method);
        if (!up) return response.writeHead(503, { "content-type": "text/plain" }).end("down");
        json(response, 200, { jsonrpc: "2.0", id, result: method === "eth_chainId" ? chainId : `0x${height.toString(16)}` });
      });
      return { url, calls, setUp: (value: boolean) => (up = value) };
    };
    /** Refuses a node whose eth_chainId is not 0x1, read through the endpoint itself. */
    const mainnetOnly = async (endpoint: { call<T>(method: string): Promise<T> }) => {
      const chainId = await endpoint.call<string>("eth_chainId");
      return chainId === "0x1" ? undefined : `chain id ${chainId}, expected 0x1`;
    };

    it("checks a URL before it first answers, skips a refused one like an unhealthy one and says why in upstreams()", async () => {
      const wrong = await ethNode("0x7a69", 5);
      const right = await ethNode("0x1", 9);
      const client = make({ chain: ethereum, urls: [wrong.url, right.url], verifyEndpoint: mainnetOnly });
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      // The wrong node was asked for its identity only; the right one once for its identity, then served.
      expect(wrong.calls).toEqual(["eth_chainId"]);
      expect(right.calls).toEqual(["eth_chainId", "eth_blockNumber", "eth_blockNumber"]);
      expect(client.upstreams()[0]).toMatchObject({
        healthy: false,
        refused: "chain id 0x7a69, expected 0x1",
        lastError: "refused: chain id 0x7a69, expected 0x1",
      });
      expect(client.upstreams()[1]).toMatchObject({ healthy: true });
      expect(client.upstreams()[1]!.refused).toBeUndefined();
    });

    it("fails with the refusal when every URL is refused", async () => {
      const wrong = await ethNode("0x7a69", 5);
      const error = await make({ chain: ethereum, urls: [wrong.url], verifyEndpoint: mainnetOnly })
        .call("eth_blockNumber")
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NodeUnreachableError);
      expect(String((error as Error).message)).toContain("refused: chain id 0x7a69");
    });

    it("checks a URL again when it comes back from a cool-down", async () => {
      let clock = 1_000;
      const first = await ethNode("0x1", 9);
      const second = await ethNode("0x1", 8);
      const client = make({
        chain: ethereum,
        urls: [first.url, second.url],
        verifyEndpoint: mainnetOnly,
        coolDownMs: 100,
        now: () => clock,
      });
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      first.setUp(false);
      expect(await client.call("eth_blockNumber")).toBe("0x8");
      first.setUp(true);
      clock += 200;
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      expect(first.calls.filter((method) => method === "eth_chainId")).toHaveLength(2);
      expect(second.calls.filter((method) => method === "eth_chainId")).toHaveLength(1);
    });

    it("treats a failing check as the URL being down", async () => {
      const node = await ethNode("0x1", 9);
      const client = make({ chain: ethereum, urls: [node.url], verifyEndpoint: () => Promise.reject(new Error("genesis unreadable")) });
      await expect(client.call("eth_blockNumber")).rejects.toBeInstanceOf(NodeUnreachableError);
      expect(client.upstreams()[0]).toMatchObject({ healthy: false, lastError: "endpoint check failed: genesis unreadable" });
    });

    it("demotes the URL that answered the most recent call for the cool-down, and checks it again after", async () => {
      let clock = 1_000;
      const ahead = await ethNode("0x1", 9);
      const behind = await ethNode("0x1", 3);
      const client = make({
        chain: ethereum,
        urls: [behind.url, ahead.url],
        verifyEndpoint: mainnetOnly,
        coolDownMs: 100,
        now: () => clock,
      });
      expect(client.demoteCurrent("nothing answered yet")).toBeUndefined();
      expect(await client.call("eth_blockNumber")).toBe("0x3");
      expect(client.demoteCurrent("3 blocks behind for 60 s")).toBe(behind.url);
      expect(client.upstreams()[0]).toMatchObject({ healthy: false, lastError: "3 blocks behind for 60 s" });
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      clock += 200;
      expect(await client.call("eth_blockNumber")).toBe("0x3");
      expect(behind.calls.filter((method) => method === "eth_chainId")).toHaveLength(2);
    });
  });
});
