import { documentedRoutes } from "@chaingate/contracts";
import { createNodeClient, tron } from "@chaingate/node-client";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@chaingate/config";
import { trxProxyConfigSchema } from "./config.ts";
import { createTrxProxyApp } from "./create-trx-proxy.ts";

describe("trx-proxy routes", () => {
  it("are every one in the published OpenAPI document", () => {
    const app = createTrxProxyApp(
      createNodeClient({ chain: tron, urls: [] }),
      loadConfig("trx-proxy", trxProxyConfigSchema, {}),
      silentLogger,
    );
    const routes = app.routes().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes.length).toBeGreaterThanOrEqual(13);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
