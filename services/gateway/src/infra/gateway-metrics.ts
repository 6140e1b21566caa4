/**
 * The gateway's own metrics (its hot path bypasses express): requests by endpoint group and status,
 * their duration, and how key lookups were answered.
 */
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { Counter, Histogram } from "prom-client";

export type KeyLookupResult = "cached" | "database" | "bypassed";

export interface GatewayMetrics {
  requests: Counter<"group" | "status">;
  duration: Histogram<"group">;
  keyLookups: Counter<"result">;
}

export function createGatewayMetrics(metrics: ServiceMetrics): GatewayMetrics {
  return {
    requests: metrics.counter({
      name: `${metrics.prefix}api_requests_total`,
      help: "API requests answered by the gateway, by endpoint group and status.",
      labelNames: ["group", "status"],
    }),
    duration: metrics.histogram({
      name: `${metrics.prefix}api_request_duration_seconds`,
      help: "Time from a request's arrival to its last byte sent, by endpoint group.",
      labelNames: ["group"],
    }),
    keyLookups: metrics.counter({
      name: `${metrics.prefix}key_lookups_total`,
      help: "API key lookups: answered from the cache, read from Postgres, or read from Postgres because the cache was bypassed (key-change listener down).",
      labelNames: ["result"],
    }),
  };
}
