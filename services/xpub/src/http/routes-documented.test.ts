import { documentedRoutes } from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import type { XpubRepository } from "../infra/xpub-repository.ts";
import { createXpubApp } from "./create-xpub-app.ts";

describe("xpub routes", () => {
  it("are every one in the published OpenAPI document", () => {
    // Registering routes calls nothing on the repository.
    const app = createXpubApp({ repository: {} as XpubRepository, network: "mainnet", logger: silentLogger, readinessChecks: {} });
    const routes = app.routes().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes).toHaveLength(3);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
