/**
 * Prometheus metrics of one service process (prom-client), named `<service>_<thing>_<unit|total>`:
 * the process's own (CPU, memory, event-loop lag, GC), HTTP requests by route and status, and
 * whatever the service registers on `registry` (node calls, scanner heights, deliveries).
 */
import { startHttpServer, type RunningHttpServer, type StartHttpServerOptions } from "./start-http-server.ts";
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from "prom-client";

/** Request durations from a cached key check (sub-millisecond) to a slow node call (seconds). */
export const DURATION_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface ServiceMetrics {
  registry: Registry;
  /** `<service>_` — every metric name starts with it. */
  prefix: string;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
  counter<Label extends string>(config: Omit<CounterConfiguration<Label>, "registers">): Counter<Label>;
  histogram<Label extends string>(config: Omit<HistogramConfiguration<Label>, "registers">): Histogram<Label>;
  gauge<Label extends string>(config: Omit<GaugeConfiguration<Label>, "registers">): Gauge<Label>;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** `btc-proxy` → `btc_proxy_`. */
export function metricPrefix(service: string): string {
  return `${service.replace(/[^a-zA-Z0-9]/g, "_")}_`;
}

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  const prefix = metricPrefix(service);
  // Process metrics start with the first scrape: test processes that host many apps never pay for them.
  let collectingProcessMetrics = false;
  const counter = <Label extends string>(config: Omit<CounterConfiguration<Label>, "registers">) =>
    new Counter<Label>({ ...config, registers: [registry] });
  const histogram = <Label extends string>(config: Omit<HistogramConfiguration<Label>, "registers">) =>
    new Histogram<Label>({ buckets: DURATION_BUCKETS_SECONDS, ...config, registers: [registry] });
  return {
    registry,
    prefix,
    counter,
    histogram,
    gauge: (config) => new Gauge({ ...config, registers: [registry] }),
    httpRequests: counter({
      name: `${prefix}http_requests_total`,
      help: "HTTP requests answered, by route pattern and status.",
      labelNames: ["method", "route", "status"],
    }),
    httpDuration: histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: "Time to answer an HTTP request (until the last byte is handed to the socket).",
      labelNames: ["method", "route", "status"],
    }),
    async render() {
      if (!collectingProcessMetrics) {
        collectingProcessMetrics = true;
        collectDefaultMetrics({ register: registry, prefix });
      }
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * Node call metrics of one chain: `<service>_node_call_duration_seconds{chain,method,outcome}` and
 * `<service>_node_call_errors_total{chain,method,reason}`; pass the result as a node client's `onCall`.
 */
export function nodeCallMetrics(
  metrics: ServiceMetrics,
  chain: string,
): (call: { method: string; seconds: number; outcome: string }) => void {
  const name = `${metrics.prefix}node_call_duration_seconds`;
  const duration =
    (metrics.registry.getSingleMetric(name) as Histogram<"chain" | "method" | "outcome"> | undefined) ??
    metrics.histogram({
      name,
      help: "Node calls by chain, method and outcome (ok, a failure reason, aborted), until the answer or its headers.",
      labelNames: ["chain", "method", "outcome"],
    });
  const errorsName = `${metrics.prefix}node_call_errors_total`;
  const errors =
    (metrics.registry.getSingleMetric(errorsName) as Counter<"chain" | "method" | "reason"> | undefined) ??
    metrics.counter({
      name: errorsName,
      help: "Node calls that failed, by chain, method and reason (a client leaving is not counted).",
      labelNames: ["chain", "method", "reason"],
    });
  return ({ method, seconds, outcome }) => {
    duration.observe({ chain, method, outcome }, seconds);
    if (outcome !== "ok" && outcome !== "aborted") errors.inc({ chain, method, reason: outcome });
  };
}

/** `/metrics` on a listener of its own (the public gateway keeps metrics off its public port). */
export async function serveMetrics(metrics: ServiceMetrics, options: StartHttpServerOptions): Promise<RunningHttpServer> {
  return startHttpServer(async (req, res) => {
    if (req.url !== "/metrics") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Only /metrics is served here."}');
      return;
    }
    const { contentType, body } = await metrics.render();
    res.writeHead(200, { "content-type": contentType }).end(body);
  }, options);
}
