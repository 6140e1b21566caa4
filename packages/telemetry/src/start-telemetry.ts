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
import { SynchronousContextManager } from "./synchronous-context-manager.ts";

export interface Telemetry {
  exporting: boolean;
  shutdown(): Promise<void>;
}

const IGNORED_PATHS = new Set(["/healthz", "/readyz"]);

export interface TelemetryOptions {
  /**
   * false for an edge that only forwards requests (the gateway): instrumenting every incoming and
   * outgoing HTTP request costs several times the hop itself, and such a hop carries the W3C
   * `traceparent` onward so traces stay connected. pg and express stay instrumented, with a
   * context manager that needs no async_hooks.
   */
  instrumentHttp?: boolean;
}

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env, options: TelemetryOptions = {}): Telemetry {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sdk = new NodeSDK({
    // The edge also skips async context tracking (see SynchronousContextManager).
    ...(options.instrumentHttp === false ? { contextManager: new SynchronousContextManager() } : {}),
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    // A no-op processor, not an empty list: with none the SDK installs no tracer provider (so no
    // trace ids), and with the default it would export to localhost:4318 unasked.
    spanProcessors: [endpoint ? new BatchSpanProcessor(new OTLPTraceExporter()) : new NoopSpanProcessor()],
    instrumentations: [
      ...(options.instrumentHttp === false
        ? []
        : [new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => IGNORED_PATHS.has(req.url ?? "") }), new UndiciInstrumentation()]),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return { exporting: Boolean(endpoint), shutdown: () => sdk.shutdown() };
}
