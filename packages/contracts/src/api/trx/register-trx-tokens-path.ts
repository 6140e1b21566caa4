/** GET /api/v1/trx/tokens/trc20 (the TRC-20 whitelist) in the OpenAPI document. */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON } from "./trx-path-common.ts";

const tokenListSchema = z
  .object({
    tokens: z.array(
      z.object({ contract: z.string(), contract_hex: z.string(), symbol: z.string(), name: z.string(), decimals: z.number().int() }),
    ),
  })
  .openapi("TrxTrc20Tokens");

export function registerTrxTokensPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "get",
    path: "/api/v1/trx/tokens/trc20",
    summary: "The TRC-20 whitelist",
    responses: { 200: json("Configured tokens.", tokenListSchema), ...GATEWAY_RESPONSES },
  });
}
