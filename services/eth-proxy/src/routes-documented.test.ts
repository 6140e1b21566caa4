import { documentedRoutes } from "@chaingate/contracts";
import { createNodeClient, ethereum, evmChain } from "@chaingate/node-client";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import { createEthProxyApp } from "./create-eth-proxy.ts";

describe("eth-proxy routes", () => {
  it("are every one in the published OpenAPI document, a configured chain's under /api/v1/{evm_chain}", () => {
    const app = createEthProxyApp(
      [
        { prefix: "eth", node: createNodeClient({ chain: ethereum, urls: [] }) },
        { prefix: "polygon", node: createNodeClient({ chain: evmChain("polygon", "polygon"), urls: [] }) },
      ],
      { JSONRPC_BODY_LIMIT: "1mb", GC_NUDGE_BYTES: 0 },
      silentLogger,
    );
    const routes = app
      .routes()
      .map(({ method, path }) => `${method.toUpperCase()} ${path.replace("/api/v1/polygon/", "/api/v1/{evm_chain}/")}`);
    expect(routes.length).toBe(28);
    expect(routes.filter((route) => route.includes("{evm_chain}"))).toHaveLength(14);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
