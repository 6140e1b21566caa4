/**
 * A configured EVM chain's nodes must answer its chain id (issue 31): against real Anvil nodes, a
 * node answering another chain is refused before it serves a call and said in an error log at
 * start; a right one beside it serves the chain; Ethereum's prefix is not held to any chain id.
 */
import { loadConfig } from "@chaingate/config";
import { createLogger } from "@chaingate/logger";
import { startAnvil, type AnvilNode } from "@chaingate/testing";
import { fileResource, integrationTest } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";
import { ethProxyConfigSchema } from "./config.ts";
import { createEthProxy } from "./create-eth-proxy.ts";

const it = integrationTest.extend<{ polygonNode: AnvilNode; ethereumNode: AnvilNode }>({
  polygonNode: fileResource(
    () => startAnvil({ chainId: 137 }),
    (node) => node.stop(),
  ),
  ethereumNode: fileResource(
    () => startAnvil(),
    (node) => node.stop(),
  ),
});

/** An eth-proxy serving polygon from `urls`, its log lines kept. */
async function polygonProxy(urls: string[], ethereumUrl: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ service: "eth-proxy", destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
  const env = {
    PORT: "0",
    ETH_RPC_URL: ethereumUrl,
    EVM_CHAINS: JSON.stringify([{ name: "polygon", rpc_urls: urls }]),
  };
  const proxy = await createEthProxy(loadConfig("eth-proxy", ethProxyConfigSchema, env), logger);
  const get = async (path: string) => {
    const response = await fetch(`${proxy.url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { proxy, lines, get };
}

describe("a configured EVM chain's node with another chain id", () => {
  it("is refused before it answers, and said at start; the chain answers from a node of its own chain id", async ({
    polygonNode,
    ethereumNode,
  }) => {
    const wrongOnly = await polygonProxy([ethereumNode.url], ethereumNode.url);
    try {
      await expect
        .poll(() => wrongOnly.lines.filter((line) => line.level === "error").map((line) => line.message), { timeout: 10_000 })
        .toContain("polygon: a node answers chain id 31337, not 137: refused (fix its URL in EVM_CHAINS)");
      const health = await wrongOnly.get("/api/v1/polygon/health");
      expect(health).toEqual({ status: 500, body: { status: "error", message: "Could not connect to POLYGON node." } });
      const nonce = await wrongOnly.get(`/api/v1/polygon/account/${ethereumNode.accounts[0]!.address}/nonce`);
      expect(nonce).toEqual({
        status: 500,
        body: { error: "Could not connect to POLYGON node.", details: { reason: "node_unreachable" } },
      });
      // Ethereum's own prefix takes the same node as it is.
      expect((await wrongOnly.get("/api/v1/eth/health")).status).toBe(200);
    } finally {
      await wrongOnly.proxy.close();
    }

    const rightAfterWrong = await polygonProxy([ethereumNode.url, polygonNode.url], ethereumNode.url);
    try {
      const health = await rightAfterWrong.get("/api/v1/polygon/health");
      expect(health.status).toBe(200);
      expect(health.body.blockNumber).toBe(await polygonNode.rpc("eth_blockNumber"));
      const chainId = await fetch(`${rightAfterWrong.proxy.url}/api/v1/polygon/jsonrpc`, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
      });
      expect(await chainId.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x89" });
    } finally {
      await rightAfterWrong.proxy.close();
    }
  });
});
