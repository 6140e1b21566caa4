/**
 * The registry endpoints (`/api/v1/webhooks*`). The gateway forwards them here with the caller's
 * account id header; every query is scoped to that account.
 */
import { REQUEST_BODY_LIMITS } from "@chaingate/contracts";
import { createHttpApp, type HttpApp } from "@chaingate/http";
import type { EventsPrunedError } from "../domain/event-sequence.ts";
import type { DeliveryPendingError } from "../domain/manual-retry.ts";
import type { TestEventRateError } from "../domain/registry-quotas.ts";
import { registerAddressRoutes } from "./webhook-app/register-address-routes.ts";
import { registerDeliveryRoutes } from "./webhook-app/register-delivery-routes.ts";
import { registerEventRoutes } from "./webhook-app/register-event-routes.ts";
import { registerQuotaUsageRoute } from "./webhook-app/register-quota-usage-route.ts";
import { registerWebhookRoutes } from "./webhook-app/register-webhook-routes.ts";
import type { WebhookAppOptions } from "./webhook-app/webhook-app-options.ts";

export { toWebhook } from "./webhook-app/to-webhook.ts";
export type { WebhookAppOptions } from "./webhook-app/webhook-app-options.ts";
export { WEBHOOKS_PATH } from "./webhook-app/webhook-paths.ts";

/** The service's HTTP app: the registry routes (webhook-app/), with the answers its errors map to. */
export function createWebhookApp(options: WebhookAppOptions): HttpApp {
  const http = createHttpApp({
    service: "delivery",
    logger: options.logger,
    metrics: options.metrics,
    readinessChecks: options.readinessChecks,
    degradedChecks: options.degradedChecks,
    internalToken: options.internalToken,
    jsonBodyLimit: REQUEST_BODY_LIMITS.webhooks,
    errorResponses: {
      missing_account: (error) => ({ status: 401, body: { message: error.message } }),
      webhook_not_found: (error) => ({ status: 404, body: { message: error.message } }),
      delivery_not_found: (error) => ({ status: 404, body: { message: error.message } }),
      events_pruned: (error) => ({
        status: 410,
        body: { message: error.message, oldest_sequence: (error as EventsPrunedError).oldestSequence },
      }),
      delivery_pending: (error) => ({ status: 409, body: { message: error.message, status: (error as DeliveryPendingError).status } }),
      test_event_rate_exceeded: (error) => ({
        status: 429,
        headers: { "retry-after": String((error as TestEventRateError).retryAfterSeconds) },
        body: { message: error.message },
      }),
    },
  });

  registerWebhookRoutes(http, options);
  registerAddressRoutes(http, options);
  registerDeliveryRoutes(http, options);
  registerEventRoutes(http, options);
  registerQuotaUsageRoute(http, options);

  http.finish();
  return http;
}
