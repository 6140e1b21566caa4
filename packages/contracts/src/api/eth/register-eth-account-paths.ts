/** The Ethereum account endpoints (`/api/v1/eth/account*`) in the OpenAPI document. */
import { ethValidationErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { ETH_PATH_COMMON, ethBadRequest, ethNodeFailure, registerEthGetPath } from "./eth-path-common.ts";
import { ethEstimateGasRequestSchema, ethSendTransactionRequestSchema } from "./eth-requests.ts";
import { ETH_BLOCK_TAGS } from "./eth-value-formats.ts";

const addressParam = z.object({ address: z.string().openapi({ example: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }) });
const blockQuery = z.object({
  block: z
    .string()
    .optional()
    .openapi({ description: `Hex QUANTITY or ${ETH_BLOCK_TAGS.join(", ")}; default latest.` }),
});

export function registerEthAccountPaths(registry: OpenAPIRegistry): void {
  registerEthGetPath(
    registry,
    "/api/v1/eth/account",
    "Addresses of the node's key store (eth_accounts; a production node has none or refuses)",
    {},
    { 200: json("Addresses.", z.array(z.string())) },
  );
  registerEthGetPath(
    registry,
    "/api/v1/eth/account/{address}/nonce",
    "Transaction count of an address: the next nonce (eth_getTransactionCount; `pending` counts the node's mempool)",
    { params: addressParam, query: blockQuery },
    {
      200: json("The count at the block.", z.object({ address: z.string(), block: z.string(), transactionCount: z.string() })),
      400: ethBadRequest("Not a 20-byte address, or a bad block."),
    },
  );
  registerEthGetPath(
    registry,
    "/api/v1/eth/account/{address}/balance",
    "Balance in wei at a block (eth_getBalance; chaingate addition)",
    { params: addressParam, query: blockQuery },
    {
      200: json("Wei, hex QUANTITY.", z.object({ address: z.string(), block: z.string(), balance: z.string() })),
      400: ethBadRequest("Not a 20-byte address, or a bad block."),
    },
  );
  registry.registerPath({
    ...ETH_PATH_COMMON,
    method: "post",
    path: "/api/v1/eth/account/estimate-gas",
    summary: "Gas estimate (eth_estimateGas, the node's own: at least 0x5208 for a plain transfer; geth answers 0x5208, Hardhat 2 0x5209)",
    request: { body: { content: { "application/json": { schema: ethEstimateGasRequestSchema } } } },
    responses: {
      200: json("The node's estimate.", z.object({ gas: z.string() })),
      422: json("transaction missing or not an object, or a member of the wrong form.", ethValidationErrorSchema),
      500: ethNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...ETH_PATH_COMMON,
    method: "post",
    path: "/api/v1/eth/account/send",
    summary: "Send from an account the node holds unlocked (eth_sendTransaction; refused by production nodes: use send-raw)",
    request: { body: { content: { "application/json": { schema: ethSendTransactionRequestSchema } } } },
    responses: {
      200: json("The transaction hash.", z.object({ transactionHash: z.string() })),
      422: json("Bad transaction.", ethValidationErrorSchema),
      500: ethNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
}
