import { documentedRoutes } from "@chaingate/contracts";
import { createNodeClient, ethereum } from "@chaingate/node-client";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import { createEthProxyApp } from "./create-eth-proxy.ts";

describe("eth-proxy routes", () => {
  it("are every one in the published OpenAPI document", () => {
    const app = createEthProxyApp(
      createNodeClient({ chain: ethereum, urls: [] }),
      { JSONRPC_BODY_LIMIT: "1mb", GC_NUDGE_BYTES: 0 },
      silentLogger,
    );
    const routes = app.routes().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes.length).toBe(14);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
