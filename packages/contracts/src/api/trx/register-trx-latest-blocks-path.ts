/** GET /api/v1/trx/block/latest/{num} in the OpenAPI document. */
import { messageErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON, trxErrorSchema, trxNodeFailure } from "./trx-path-common.ts";

export function registerTrxLatestBlocksPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "get",
    path: "/api/v1/trx/block/latest/{num}",
    summary: "The newest num blocks, newest first, with their transactions (streamed; num at most BLOCK_LATEST_MAX, 50 by default)",
    request: { params: z.object({ num: z.string().regex(/^\d+$/).openapi({ example: "3" }) }) },
    responses: {
      200: json("`{block: [...]}` as java-tron prints blocks.", z.object({ block: z.array(z.record(z.string(), z.unknown())) })),
      400: json("num is 0 or above the cap.", trxErrorSchema),
      404: json("Not an integer: a routing miss.", messageErrorSchema),
      500: trxNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
}
