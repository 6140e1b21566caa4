/**
 * OpenTelemetry for a service: HTTP, express, pg and undici instrumented; spans exported over
 * OTLP/HTTP only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. Without it spans are still created
 * (so log lines carry trace ids and traceparent propagates) but nothing leaves the process.
 */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { ExpressInstrumentation } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";

export interface Telemetry {
  exporting: boolean;
  shutdown(): Promise<void>;
}

const IGNORED_PATHS = new Set(["/healthz", "/readyz"]);

/**
 * Hot paths a service chooses not to trace span by span (the gateway's proxied requests: the
 * SDK's per-request work costs several times the hop itself). Such requests still carry their
 * `traceparent` onward, so traces stay connected.
 */
let untracedIncoming: (path: string) => boolean = () => false;
let untracedOutgoing = false;

export function skipTracing(options: { incoming?: (path: string) => boolean; outgoingUndici?: boolean }): void {
  if (options.incoming) untracedIncoming = options.incoming;
  if (options.outgoingUndici !== undefined) untracedOutgoing = options.outgoingUndici;
}

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    // A no-op processor, not an empty list: with none the SDK installs no tracer provider (so no
    // trace ids), and with the default it would export to localhost:4318 unasked.
    spanProcessors: [endpoint ? new BatchSpanProcessor(new OTLPTraceExporter()) : new NoopSpanProcessor()],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => IGNORED_PATHS.has(req.url ?? "") || untracedIncoming(req.url ?? ""),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
      new UndiciInstrumentation({ ignoreRequestHook: () => untracedOutgoing }),
    ],
  });
  sdk.start();
  return { exporting: Boolean(endpoint), shutdown: () => sdk.shutdown() };
}
