/**
 * What the gateway serves itself: the OpenAPI document, the API reference page, the web console,
 * health endpoints, the routes it answers itself (registerRoutes: the account API, which
 * authenticates on its own), and JSON 404/405 for every path no service owns.
 */
import { buildOpenApiDocument } from "@chaingate/contracts";
import { createHttpApp, type HttpApp } from "@chaingate/http";
import { type ServiceMetrics } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import express from "express";
// absolute-path, not the package root: the root module loads the whole UI bundle into the server.
import getSwaggerUiPath from "swagger-ui-dist/absolute-path.js";
import { serveConsole } from "./serve-console.ts";

export const OPENAPI_PATH = "/api/v1/openapi.json";

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>chaingate API v1 reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: "${OPENAPI_PATH}", dom_id: "#reference", deepLinking: true });
  </script>
</body>
</html>`;

export interface PublicAppOptions {
  logger: Logger;
  readinessChecks: Record<string, () => Promise<unknown>>;
  metrics: ServiceMetrics;
  /** Routes the gateway answers itself (the account API); registered before the 404/405 fallback. */
  registerRoutes?(http: HttpApp): void;
  /** The built web console served at /console. */
  consoleDir: string;
  /** REQUEST_BODY_RECEIVE_TIMEOUT_MS: the account API's JSON bodies get the proxied paths' deadline. */
  bodyReceiveTimeoutMs: number;
}

export function createPublicApp(options: PublicAppOptions): HttpApp {
  // Metrics are never public: they are served on METRICS_PORT (see create-gateway.ts).
  const http = createHttpApp({
    service: "gateway",
    logger: options.logger,
    readinessChecks: options.readinessChecks,
    metrics: options.metrics,
    serveMetrics: false,
    bodyReceiveTimeoutMs: options.bodyReceiveTimeoutMs,
  });
  // Built once: the document depends on code only.
  const document = JSON.stringify(buildOpenApiDocument());
  http.route("get", OPENAPI_PATH, (_req, res) => {
    res.type("application/json").send(document);
  });
  http.route("get", "/docs", (_req, res) => {
    res.type("html").send(DOCS_PAGE);
  });
  http.app.use("/docs/assets", express.static(getSwaggerUiPath(), { index: false }));
  serveConsole(http.app, options.consoleDir);
  options.registerRoutes?.(http);
  http.finish();
  return http;
}
