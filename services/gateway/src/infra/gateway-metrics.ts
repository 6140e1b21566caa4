/**
 * The gateway's own metrics (its hot path bypasses express): requests by endpoint group and status,
 * their duration, and how key lookups were answered. Each label set's series is looked up once and
 * kept: prom-client hashes the labels object on every `inc`/`observe` otherwise.
 */
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { Counter, Histogram } from "prom-client";

export type KeyLookupResult = "cached" | "database" | "bypassed";

export interface GatewayMetrics {
  /** One answered API request of usage group `group`, `seconds` from arrival to its last byte. */
  recordRequest(group: string, status: number, seconds: number): void;
  recordKeyLookup(result: KeyLookupResult): void;
}

export function createGatewayMetrics(metrics: ServiceMetrics): GatewayMetrics {
  const requests = metrics.counter({
    name: `${metrics.prefix}api_requests_total`,
    help: "API requests answered by the gateway, by endpoint group and status.",
    labelNames: ["group", "status"],
  });
  const duration = metrics.histogram({
    name: `${metrics.prefix}api_request_duration_seconds`,
    help: "Time from a request's arrival to its last byte sent, by endpoint group.",
    labelNames: ["group"],
  });
  const keyLookups = metrics.counter({
    name: `${metrics.prefix}key_lookups_total`,
    help: "API key lookups: answered from the cache, read from Postgres, or read from Postgres because the cache was bypassed (key-change listener down).",
    labelNames: ["result"],
  });
  // Groups and statuses are few (route-table.ts, the statuses services answer): the maps stay small.
  const requestSeries = new Map<string, Map<number, ReturnType<Counter<"group" | "status">["labels"]>>>();
  const durationSeries = new Map<string, ReturnType<Histogram<"group">["labels"]>>();
  return {
    recordRequest(group, status, seconds) {
      let byStatus = requestSeries.get(group);
      if (!byStatus) requestSeries.set(group, (byStatus = new Map()));
      let counter = byStatus.get(status);
      if (!counter) byStatus.set(status, (counter = requests.labels({ group, status: String(status) })));
      counter.inc();
      let histogram = durationSeries.get(group);
      if (!histogram) durationSeries.set(group, (histogram = duration.labels({ group })));
      histogram.observe(seconds);
    },
    recordKeyLookup: (result) => keyLookups.inc({ result }),
  };
}
