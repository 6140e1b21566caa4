/** Shared pieces every area registers its paths with. */
import { OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { messageErrorSchema } from "../api/error-bodies.ts";

export { OpenAPIRegistry };

export const SECURITY: Array<Record<string, string[]>> = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];

import type { z } from "zod";

export function json(description: string, schema: z.ZodType): ResponseConfig {
  return { description, content: { "application/json": { schema } } };
}

/** Responses every authenticated endpoint can give, produced by the gateway. */
export const GATEWAY_RESPONSES: Record<number, ResponseConfig> = {
  401: json("No API key was sent, or it matches no active key (two distinct messages).", messageErrorSchema),
  503: json("The internal service behind this path is down or not configured; retry later.", messageErrorSchema),
};
