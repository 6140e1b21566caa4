import { documentedRoutes } from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import type { XpubRepository } from "../infra/xpub-repository.ts";
import { createXpubApp, ETH_XPUB_BASE_PATH, XPUB_BASE_PATH } from "./create-xpub-app.ts";

describe("xpub routes", () => {
  it("are every one in the published OpenAPI document, a configured chain's under /api/v1/{evm_chain}/xpub", () => {
    // Registering routes calls nothing on the repository.
    const chain = (basePath: string) => ({
      chain: basePath.split("/")[3]!.toUpperCase(),
      basePath,
      repository: {} as XpubRepository,
      parseKey: () => ({}) as never,
      toIssued: () => ({}) as never,
      toHistoryEntry: () => ({}) as never,
    });
    const app = createXpubApp({
      chains: [chain(XPUB_BASE_PATH), chain(ETH_XPUB_BASE_PATH), chain("/api/v1/polygon/xpub")],
      logger: silentLogger,
      readinessChecks: {},
      quotaUsage: () => ({}) as never,
    });
    // The internal quota route is not public (the gateway routes only /api/v1).
    const routes = app
      .routes()
      .filter(({ path }) => !path.startsWith("/internal/"))
      .map(({ method, path }) => `${method.toUpperCase()} ${path.replace("/api/v1/polygon/", "/api/v1/{evm_chain}/")}`);
    expect(routes).toHaveLength(12);
    expect(routes.filter((route) => route.includes("{evm_chain}"))).toHaveLength(4);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
