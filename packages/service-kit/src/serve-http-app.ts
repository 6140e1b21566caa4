/**
 * A service's app on its port, with `/metrics` on METRICS_PORT beside it when set: one close
 * that drains both, then releases the service's resources. (Apart from start-http-server.ts, which
 * the metrics server itself uses.)
 */
import type { RequestListener } from "node:http";
import { serveMetrics, type ServiceMetrics } from "./service-metrics.ts";
import { startHttpServer, type RunningHttpServer, type StartHttpServerOptions } from "./start-http-server.ts";

export interface ServedApp {
  server: RunningHttpServer;
  url: string;
  /** Where `/metrics` is also served (METRICS_PORT), if anywhere. */
  metricsUrl?: string | undefined;
  /** Marks the app draining (readyz 503), drains the server, then releases the service's resources. */
  close(): Promise<void>;
}

/** Serves an app from createHttpApp; `release` runs after the last in-flight request finished. */
export async function serveHttpApp(
  http: { app: RequestListener; markDraining(): void; metrics?: ServiceMetrics },
  options: StartHttpServerOptions,
  release: () => Promise<void>,
): Promise<ServedApp> {
  const server = await startHttpServer(http.app, options);
  const metricsServer = options.metrics && http.metrics ? await serveMetrics(http.metrics, { ...options, ...options.metrics }) : undefined;
  return {
    server,
    url: server.url,
    metricsUrl: metricsServer?.url,
    async close() {
      http.markDraining();
      await server.close();
      await metricsServer?.close();
      await release();
    },
  };
}
