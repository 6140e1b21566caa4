import { createChainRegistry } from "@chaingate/chain-registry";
import { documentedRoutes } from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import type { WebhookRepository } from "../infra/webhook-repository.ts";
import type { DeliveryLog } from "../infra/delivery-log.ts";
import type { EventHistory } from "../infra/event-history.ts";
import { DEFAULT_REGISTRY_QUOTAS } from "../domain/registry-quotas.ts";
import { createWebhookApp } from "./create-webhook-app.ts";

describe("delivery routes", () => {
  it("are every one in the published OpenAPI document", () => {
    const app = createWebhookApp({
      repository: {} as WebhookRepository,
      deliveries: {} as DeliveryLog,
      events: {} as EventHistory,
      quotas: DEFAULT_REGISTRY_QUOTAS,
      bitcoinNetwork: "mainnet",
      chains: createChainRegistry(),
      allowCidrs: [],
      resolveHost: async () => [],
      logger: silentLogger,
      readinessChecks: {},
    });
    // The internal quota route is not public (the gateway routes only /api/v1).
    const routes = app
      .routes()
      .filter(({ path }) => !path.startsWith("/internal/"))
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes).toHaveLength(13);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
