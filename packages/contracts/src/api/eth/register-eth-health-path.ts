/** GET /api/v1/eth/health in the OpenAPI document. */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { ETH_PATH_COMMON } from "./eth-path-common.ts";

const healthSchema = z
  .object({ status: z.string(), time: z.iso.datetime(), blockNumber: z.string().openapi({ example: "0x1b4" }) })
  .openapi("EthHealth");
const healthErrorSchema = z.object({ status: z.literal("error"), message: z.string() });

export function registerEthHealthPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...ETH_PATH_COMMON,
    method: "get",
    path: "/api/v1/eth/health",
    summary: "Node status (eth_blockNumber)",
    responses: {
      200: json("The node's latest block number.", healthSchema),
      500: json("The node is unreachable or not configured.", healthErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
