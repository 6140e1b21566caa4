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
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "chaingate API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/" }],
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
  });
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path);
      const responses = operation.responses as Record<string, Response>;
      // The shared HTTP layer's answers, possible on every operation (packages/http).
      addAnswer(responses, "500", 'Or `{message: "Internal server error"}`: a fault of the service\'s own (logged).');
      // A path segment its route does not accept (digits only, say) is a routing miss.
      if (path.includes("{")) addAnswer(responses, "404", "Or `{message}`: a path segment of the wrong form (a routing miss).");
      if (operation.requestBody) {
        addAnswer(responses, "400", "Or `{message}`: the body is not valid JSON.");
        addAnswer(responses, "413", "`{message}`: the body is larger than the service or the gateway accepts.");
        addAnswer(responses, "415", "`{message}`: a content encoding or charset the service cannot read.");
      }
    }
  }
  return document;
}

interface Response {
  description: string;
  content?: Record<string, { schema: unknown }>;
}

const MESSAGE_ERROR = { $ref: "#/components/schemas/MessageError" };

/** Documents a `{message}` answer for `status`, beside what the operation already answers with it. */
function addAnswer(responses: Record<string, Response>, status: string, description: string): void {
  const existing = responses[status];
  if (!existing) {
    responses[status] = { description: description.replace(/^Or /, ""), content: { "application/json": { schema: MESSAGE_ERROR } } };
    return;
  }
  const media = existing.content?.["application/json"];
  if (!media) {
    existing.content = { "application/json": { schema: MESSAGE_ERROR } };
    return;
  }
  if (JSON.stringify(media.schema) === JSON.stringify(MESSAGE_ERROR)) return;
  media.schema = { anyOf: [media.schema, MESSAGE_ERROR] };
  existing.description = `${existing.description} ${description}`;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

/**
 * An operation's id, derived from its method and path so it changes only when they do (code
 * generators name functions after it): `GET /api/v1/btc/block/{height}` → `getBtcBlockByHeight`,
 * `GET /api/v1/{evm_chain}/health` → `getEvmChainHealth`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\//, "")
    .split("/")
    .filter(Boolean)
    .map((segment, position) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      // A leading parameter names a family of paths (`/api/v1/{evm_chain}/health` → getEvmChainHealth).
      return (parameter ? (position === 0 ? parameter[1]! : `by-${parameter[1]}`) : segment)
        .split(/[-_.]/)
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join("");
    });
  return method.toLowerCase() + words.join("");
}

/** "METHOD /path/{param}" for every operation in the document: services check their routes against it. */
export function documentedRoutes(): Set<string> {
  const { paths = {} } = buildOpenApiDocument();
  return new Set(
    Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations ?? {}).map((method) => `${method.toUpperCase()} ${path}`)),
  );
}
