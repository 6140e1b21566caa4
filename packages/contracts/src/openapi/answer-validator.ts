/**
 * Checks HTTP answers against the OpenAPI document: the operation the request reached, a status it
 * documents, and a body its JSON schema accepts (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 * For tests: the gateway's test helper runs every answer it serves through this.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "./build-openapi-document.ts";

export interface HttpAnswer {
  method: string;
  /** The request's path, query string allowed. */
  url: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

export interface AnswerCheck {
  /** `GET /api/v1/btc/block/{blockNumber}`, or undefined when no operation matches. */
  operation: string | undefined;
  /** Why the answer contradicts the document; empty when it conforms. */
  problems: string[];
}

export interface AnswerValidator {
  check(answer: HttpAnswer): AnswerCheck;
}

const DOCUMENT_ID = "chaingate-openapi.json";

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  /** Path parameters: a template with fewer matches a path first (`block/best` before `block/{blockNumber}`). */
  parameters: number;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export function createAnswerValidator(document = buildOpenApiDocument()): AnswerValidator {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  // The enum's subset ajv-formats knows; unknown formats are let through (strict: false).
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const routes: Route[] = [];
  for (const [template, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations as Record<string, { responses?: Route["responses"] }>)) {
      const source = template
        .split("/")
        .map((segment) => (/^\{.+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")))
        .join("/");
      routes.push({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${source}$`),
        parameters: (template.match(/\{/g) ?? []).length,
        responses: operation.responses ?? {},
      });
    }
  }
  routes.sort((a, b) => a.parameters - b.parameters);
  const validators = new Map<string, ValidateFunction>();

  const schemaOf = (route: Route, status: string): ValidateFunction => {
    const pointer = `${DOCUMENT_ID}#/paths/${escapePointer(route.template)}/${route.method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(pointer);
      if (!validate) throw new Error(`no schema at ${pointer}`);
      validators.set(pointer, validate);
    }
    return validate;
  };

  return {
    check({ method, url, status, contentType, body }) {
      const path = url.split("?")[0]!;
      const route = routes.find((candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(path));
      if (!route) return { operation: undefined, problems: [`${method} ${path}: no documented operation`] };
      const operation = `${route.method} ${route.template}`;
      const documented = route.responses[String(status)];
      if (!documented)
        return {
          operation,
          problems: [
            `${operation}: status ${status} is not documented (${Object.keys(route.responses).join(", ")}): ${body.slice(0, 200)}`,
          ],
        };
      if (!documented.content)
        return {
          operation,
          problems: body === "" ? [] : [`${operation} ${status}: documented without a body, answered ${body.slice(0, 200)}`],
        };
      if (!documented.content["application/json"]) return { operation, problems: [] };
      if (!contentType?.startsWith("application/json"))
        return { operation, problems: [`${operation} ${status}: content type ${contentType ?? "none"}, documented application/json`] };
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return { operation, problems: [`${operation} ${status}: the body is not JSON: ${body.slice(0, 200)}`] };
      }
      const validate = schemaOf(route, String(status));
      if (validate(parsed)) return { operation, problems: [] };
      const reasons = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
      return { operation, problems: [`${operation} ${status}: ${reasons.join("; ")}: ${body.slice(0, 300)}`] };
    },
  };
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
