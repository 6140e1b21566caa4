/** The Ethereum transaction endpoints (`/api/v1/eth/transactions/*`) in the OpenAPI document. */
import { ethValidationErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { ETH_PATH_COMMON, ethBadRequest, ethNodeFailure, ethNodeObject, registerEthGetPath } from "./eth-path-common.ts";
import { ethSendRawRequestSchema } from "./eth-requests.ts";

const transactionSchema = ethNodeObject("EthTransaction", "The node's eth_getTransactionByHash object, unchanged.");
const receiptSchema = ethNodeObject("EthReceipt", "The node's eth_getTransactionReceipt object, unchanged.");

export function registerEthTransactionPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...ETH_PATH_COMMON,
    method: "post",
    path: "/api/v1/eth/transactions/send-raw",
    summary: "Broadcast a signed transaction (eth_sendRawTransaction)",
    request: { body: { content: { "application/json": { schema: ethSendRawRequestSchema } } } },
    responses: {
      200: json("The transaction hash.", z.object({ transactionHash: z.string() })),
      422: json("hex missing or not hexadecimal.", ethValidationErrorSchema),
      500: ethNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registerEthGetPath(
    registry,
    "/api/v1/eth/transactions/{transactionHash}",
    "A transaction (eth_getTransactionByHash)",
    { params: z.object({ transactionHash: z.string() }) },
    {
      200: json("The transaction; an unknown hash is a 500 with details.reason not_found.", transactionSchema),
      400: ethBadRequest("Not a 32-byte hash."),
    },
  );
  registerEthGetPath(
    registry,
    "/api/v1/eth/transactions/{transactionHash}/receipt",
    "A transaction's receipt (eth_getTransactionReceipt)",
    { params: z.object({ transactionHash: z.string() }) },
    {
      200: json("The receipt; unknown or not yet mined is a 500 with details.reason not_found.", receiptSchema),
      400: ethBadRequest("Not a 32-byte hash."),
    },
  );
}
