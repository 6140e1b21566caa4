import { documentedRoutes } from "@chaingate/contracts";
import { describe, expect, it } from "vitest";
import { silentLogger } from "@chaingate/testing";
import { createBtcProxyApp } from "./create-btc-proxy.ts";
import { bitcoin, createNodeClient } from "@chaingate/node-client";

describe("btc-proxy routes", () => {
  it("are every one in the published OpenAPI document", () => {
    const app = createBtcProxyApp(
      createNodeClient({ chain: bitcoin, urls: [] }),
      { JSONRPC_BODY_LIMIT: "1mb", GC_NUDGE_BYTES: 0 },
      silentLogger,
    );
    const routes = app.routes().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
