/**
 * Which key a request presents (spec, Authentication 3–5): `X-API-Key` (any case) or
 * `Authorization: Bearer <key>`; when both are sent X-API-Key wins. An empty header counts as
 * not sent.
 */
import type { IncomingHttpHeaders } from "node:http";

export type Credential = { kind: "missing" } | { kind: "key"; key: string; via: "x-api-key" | "bearer" };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function readCredential(headers: IncomingHttpHeaders): Credential {
  const apiKeyHeader = headers["x-api-key"];
  const apiKey = (Array.isArray(apiKeyHeader) ? apiKeyHeader.join(",") : apiKeyHeader)?.trim();
  if (apiKey) return { kind: "key", key: apiKey, via: "x-api-key" };
  const bearer = headers.authorization ? BEARER.exec(headers.authorization)?.[1] : undefined;
  if (bearer) return { kind: "key", key: bearer, via: "bearer" };
  return { kind: "missing" };
}
