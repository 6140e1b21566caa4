/** Shared pieces every area registers its paths with. */
import { OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { messageErrorSchema } from "../api/error-bodies.ts";

export { OpenAPIRegistry };

export const SECURITY: Array<Record<string, string[]>> = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];

import type { z } from "zod";

export function json(description: string, schema: z.ZodType): ResponseConfig {
  return { description, content: { "application/json": { schema } } };
}

/** The `Retry-After` header of a 429 or 503: whole seconds. */
export const RETRY_AFTER_HEADER = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const, minimum: 1 } },
};

/** The gateway's opt-in request rate limit (off by default: the spec's v1 has none). */
export const RATE_LIMITED: ResponseConfig = {
  ...json(
    "Only when the operator turned on RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND (off by default, as v1 has no rate limit): this key sent more requests than that in the last second (one limit across all gateway replicas). `{message}` with `Retry-After`.",
    messageErrorSchema,
  ),
  headers: RETRY_AFTER_HEADER,
};

/** Responses every authenticated endpoint can give, produced by the gateway. */
export const GATEWAY_RESPONSES: Record<number, ResponseConfig> = {
  401: json("No API key was sent, or it matches no active key (two distinct messages).", messageErrorSchema),
  408: json(
    "A request body was not received whole within REQUEST_BODY_RECEIVE_TIMEOUT_MS (requests with a body); the connection is closed.",
    messageErrorSchema,
  ),
  429: RATE_LIMITED,
  503: json(
    "The internal service behind this path is down or not configured, or the gateway (or this account, past its share) holds too many request bodies at once; retry later (Retry-After).",
    messageErrorSchema,
  ),
};
