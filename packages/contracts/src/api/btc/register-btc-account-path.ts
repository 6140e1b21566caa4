/** GET /api/v1/btc/account (the node's own wallet) in the OpenAPI document. */
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { BTC_PATH_COMMON, btcNodeFailure } from "./btc-path-common.ts";

const walletAddressSchema = z
  .object({ address: z.string(), amount: z.number(), confirmations: z.number().int(), label: z.string(), txids: z.array(z.string()) })
  .openapi("BtcWalletAddress");

export function registerBtcAccountPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/account",
    summary: "Addresses of the node's own wallet (always [] on a node without a wallet)",
    request: {
      query: z.object({
        minconf: z.string().optional().openapi({ example: "1" }),
        includeEmpty: z.enum(["true", "false"]).optional(),
        includeWatchOnly: z.enum(["true", "false"]).optional(),
      }),
    },
    responses: {
      200: json("listreceivedbyaddress rows.", z.array(walletAddressSchema)),
      400: json("minconf negative or not an integer, or a flag that is not true/false.", z.object({ error: z.string() })),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
}
