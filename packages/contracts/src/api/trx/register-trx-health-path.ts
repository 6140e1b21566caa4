/** GET /api/v1/trx/health in the OpenAPI document. */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON } from "./trx-path-common.ts";

export function registerTrxHealthPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "get",
    path: "/api/v1/trx/health",
    summary: "Node status: head and solidified blocks (chaingate addition)",
    responses: {
      200: json(
        "The node's head block, its age and the solidified block.",
        z
          .object({
            status: z.literal("ok"),
            time: z.iso.datetime(),
            block: z.number().int(),
            block_time: z.iso.datetime().nullable(),
            head_age_seconds: z.number().int().nullable(),
            solidified_block: z.number().int(),
          })
          .openapi("TrxHealth"),
      ),
      500: json("The node is unreachable or not configured.", z.object({ status: z.literal("error"), message: z.string() })),
      ...GATEWAY_RESPONSES,
    },
  });
}
