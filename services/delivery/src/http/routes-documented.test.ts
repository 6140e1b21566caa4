import { documentedRoutes } from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import { describe, expect, it } from "vitest";
import type { WebhookRepository } from "../infra/webhook-repository.ts";
import type { DeliveryLog } from "../infra/delivery-log.ts";
import { createWebhookApp } from "./create-webhook-app.ts";

describe("delivery routes", () => {
  it("are every one in the published OpenAPI document", () => {
    const app = createWebhookApp({ repository: {} as WebhookRepository, deliveries: {} as DeliveryLog, bitcoinNetwork: "mainnet", allowCidrs: [], resolveHost: async () => [], logger: silentLogger, readinessChecks: {} });
    const routes = app.routes().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(routes).toHaveLength(11);
    expect(routes.filter((route) => !documentedRoutes().has(route))).toEqual([]);
  });
});
