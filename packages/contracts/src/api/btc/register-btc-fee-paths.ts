/** The Bitcoin fee endpoints in the OpenAPI document: the fee estimate and the mempool's fee floor. */
import { validationErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { BTC_PATH_COMMON, btcNodeFailure } from "./btc-path-common.ts";
import { btcFeeEstimateQuerySchema } from "./btc-requests.ts";

const feeEstimateSchema = z
  .object({
    blocks: z.number().int(),
    feerate_btc_per_kvb: z.number().nullable().openapi({ description: "BTC per 1000 virtual bytes, as the node gives it." }),
    feerate_sat_per_vb: z.number().nullable().openapi({ description: "Satoshis per virtual byte." }),
    errors: z.array(z.string()),
  })
  .openapi("BtcFeeEstimate");

export function registerBtcFeePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/fee-estimate",
    summary: "Fee estimate in BTC/kvB and sat/vB (chaingate addition)",
    request: { query: btcFeeEstimateQuerySchema },
    responses: {
      200: json("estimatesmartfee; nulls and errors when the node has too little data.", feeEstimateSchema),
      400: json("A query parameter given more than once or in array form.", z.object({ error: z.string() })),
      422: json("Bad blocks or mode.", validationErrorSchema),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/mempool",
    summary: "Mempool size and fee floor (getmempoolinfo; chaingate addition)",
    responses: { 200: json("getmempoolinfo.", z.record(z.string(), z.unknown())), 500: btcNodeFailure, ...GATEWAY_RESPONSES },
  });
}
