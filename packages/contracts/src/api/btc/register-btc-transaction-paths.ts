/** The Bitcoin transaction endpoints (`/api/v1/btc/transactions/*`) in the OpenAPI document. */
import { validationErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { BTC_PATH_COMMON, btcNodeFailure } from "./btc-path-common.ts";
import { btcSendRawRequestSchema } from "./btc-requests.ts";

export function registerBtcTransactionPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "post",
    path: "/api/v1/btc/transactions/send-raw",
    summary: "Broadcast a signed transaction",
    request: { body: { content: { "application/json": { schema: btcSendRawRequestSchema } } } },
    responses: {
      200: json("Accepted by the node's mempool.", z.object({ txid: z.string() })),
      422: json("hex missing or not hexadecimal.", validationErrorSchema),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/transactions/{txid}",
    summary: "A transaction (getrawtransaction verbose; streamed)",
    request: { params: z.object({ txid: z.string() }) },
    responses: { 200: json("The transaction object.", z.record(z.string(), z.unknown())), 500: btcNodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/transactions/{txid}/outputs/{n}",
    summary: "Whether an output is unspent (gettxout, mempool included; chaingate addition)",
    request: { params: z.object({ txid: z.string(), n: z.string().regex(/^\d+$/) }) },
    responses: {
      200: json(
        "`unspent: false` with `output: null` means spent or never existed.",
        z.object({ unspent: z.boolean(), output: z.record(z.string(), z.unknown()).nullable() }),
      ),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
}
