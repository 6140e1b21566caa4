/**
 * Stands in for an OTLP/HTTP trace collector (JSON encoding): records every span it receives with
 * the name of the service that sent it, so tests can check trace ids and parent links.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Absent or empty for a root span. */
  parentSpanId?: string;
  name: string;
  kind: number;
}

export interface OtlpCollector {
  /** The base URL to set as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: CollectedSpan[];
  close(): Promise<void>;
}

interface ExportRequest {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<Omit<CollectedSpan, "service">> }>;
  }>;
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const payload = JSON.parse(body) as ExportRequest;
      for (const resourceSpans of payload.resourceSpans) {
        const service = resourceSpans.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans)
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId,
              name: span.name,
              kind: span.kind,
            });
        }
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
