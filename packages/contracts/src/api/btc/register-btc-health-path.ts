/** GET /api/v1/btc/health in the OpenAPI document. */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { BTC_PATH_COMMON } from "./btc-path-common.ts";

const healthSchema = z
  .object({
    status: z.string(),
    time: z.iso.datetime(),
    chain: z.string(),
    blocks: z.number().int(),
    headers: z.number().int(),
    verificationProgress: z.number(),
  })
  .openapi("BtcHealth");
const healthErrorSchema = z.object({ status: z.literal("error"), message: z.string() }).openapi("HealthError");

export function registerBtcHealthPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/health",
    summary: "Node status",
    responses: {
      200: json("Chain, height and sync progress.", healthSchema),
      500: json("The node is unreachable or not configured.", healthErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
