/**
 * The OpenAPI 3.1 document of `/api/v1`, generated from the same zod schemas the services validate
 * with. Served by the gateway at `/api/v1/openapi.json` and rendered at `/docs`.
 */
import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { OpenAPIRegistry } from "./openapi-registry.ts";
import { AREAS } from "./areas.ts";

const DESCRIPTION = `One authenticated HTTP/JSON API in front of Bitcoin, Ethereum and Tron nodes, with watch-only
address issuing from extended public keys and signed webhook notifications.

Authentication: send the 40-character key in \`X-API-Key\` (or \`Authorization: Bearer <key>\`; when both are
sent X-API-Key wins; an empty header counts as not sent). Usage statistics count only the X-API-Key path.

Errors produced by the gateway itself (401, 404 unknown route, 405, 503) are \`{message}\`, always JSON
whatever the \`Accept\` header says (a deliberate improvement on HTML error pages).`;

export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31["generateDocument"]> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKeyAuth", { type: "apiKey", in: "header", name: "X-API-Key" });
  registry.registerComponent("securitySchemes", "BearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "The same API key as a personal access token.",
  });
  for (const registerArea of AREAS) registerArea(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "chaingate API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/" }],
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
  });
}

/** "METHOD /path/{param}" for every operation in the document: services check their routes against it. */
export function documentedRoutes(): Set<string> {
  const { paths = {} } = buildOpenApiDocument();
  return new Set(Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations ?? {}).map((method) => `${method.toUpperCase()} ${path}`)));
}
