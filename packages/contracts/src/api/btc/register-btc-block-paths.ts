/** The Bitcoin block endpoints (`/api/v1/btc/block/*`) in the OpenAPI document. */
import { messageErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { BTC_PATH_COMMON, btcNodeFailure } from "./btc-path-common.ts";

const blockSchema = z
  .object({
    hash: z.string(),
    confirmations: z.number().int(),
    height: z.number().int(),
    time: z.number().int(),
    mediantime: z.number().int(),
    nTx: z.number().int(),
    previousblockhash: z.string().optional(),
    nextblockhash: z.string().optional(),
    tx: z.array(z.record(z.string(), z.unknown())).openapi({ description: "Full transaction objects; element 0 is the coinbase." }),
  })
  .passthrough()
  .openapi("BtcBlock", { description: "The node's getblock verbosity 2 object, streamed unchanged (see the spec for every field)." });
const hashParam = z.object({
  blockHash: z.string().openapi({ example: "0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5" }),
});

export function registerBtcBlockPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/block/{blockNumber}",
    summary: "Block by height, with full transactions (streamed; megabytes)",
    request: {
      params: z.object({
        blockNumber: z
          .string()
          .regex(/^-?\d+$/)
          .openapi({ example: "840000" }),
      }),
    },
    responses: {
      200: json("The block (getblock verbosity 2).", blockSchema),
      400: json("Negative height.", z.object({ error: z.string() })),
      404: json("Not an integer: a routing miss.", messageErrorSchema),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/block/best",
    summary: "Hash and height of the chain tip (chaingate addition)",
    responses: {
      200: json("The tip.", z.object({ hash: z.string(), height: z.number().int() })),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/block/hash/{blockHash}",
    summary: "Block by hash, with full transactions (chaingate addition; streamed)",
    request: { params: hashParam },
    responses: { 200: json("The block (getblock verbosity 2).", blockSchema), 500: btcNodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/block/hash/{blockHash}/header",
    summary: "Block header (chaingate addition)",
    request: { params: hashParam },
    responses: { 200: json("getblockheader verbose.", z.record(z.string(), z.unknown())), 500: btcNodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "get",
    path: "/api/v1/btc/block/hash/{blockHash}/transactions/count",
    summary: "Number of transactions in a block",
    request: { params: hashParam },
    responses: {
      200: json("Count including the coinbase.", z.object({ transactionCount: z.number().int().nullable() })),
      500: btcNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
}
