/**
 * `GET /api/v1/chains`: every chain a deployment serves (Bitcoin, Ethereum, Tron and the EVM chains
 * of its EVM_CHAINS), with the facts a client needs to use them: the `coin` webhooks take, the API
 * prefix, the native currency, and the confirmations a webhook may ask for. Served by the gateway;
 * the web console lists chains from it. A chaingate addition.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "../zod.ts";
import { GATEWAY_RESPONSES, SECURITY, json } from "../openapi/openapi-registry.ts";

export const chainSchema = z
  .object({
    coin: z.string().openapi({ description: "The chain's name in webhooks and events (`coin`).", example: "POLYGON" }),
    prefix: z.string().openapi({ description: "Its API prefix: `/api/v1/{prefix}/…`.", example: "polygon" }),
    name: z.string(),
    kind: z.enum(["bitcoin", "evm", "tron"]),
    native_currency: z.object({ symbol: z.string(), decimals: z.number().int() }).openapi({ example: { symbol: "POL", decimals: 18 } }),
    chain_id: z.number().int().nullable().openapi({
      description:
        "The EIP-155 chain id its nodes must answer (a configured EVM chain); null where the node's own is taken (ETH) or none applies.",
      example: 137,
    }),
    block_seconds: z.number().openapi({ description: "Average seconds between blocks." }),
    confirmations: z
      .object({ default: z.number().int(), max: z.number().int() })
      .openapi({ description: "A webhook's `confirmations` when it asks for none, and the most it may ask for." }),
    token_reporting: z
      .enum(["optional", "never", "always"])
      .openapi({ description: "`include_tokens`: the webhook's choice, never (no tokens) or always (the spec's TRX)." }),
    pending_events: z.boolean().openapi({ description: "Whether a webhook may ask for `pending` (mempool) events." }),
  })
  .openapi("Chain");

export const chainListSchema = z.object({ data: z.array(chainSchema) }).openapi("ChainList");
export type ChainListBody = z.infer<typeof chainListSchema>;

export function registerChainPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v1/chains",
    tags: ["Chains"],
    security: SECURITY,
    summary: "The chains this deployment serves (built-in and configured EVM chains; chaingate addition)",
    responses: { 200: json("Every chain, the built-in ones first.", chainListSchema), ...GATEWAY_RESPONSES },
  });
}
