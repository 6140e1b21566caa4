/** The Ethereum block endpoints (`/api/v1/eth/block/*`) in the OpenAPI document. */
import { json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { ethBadRequest, ethNodeObject, registerEthGetPath } from "./eth-path-common.ts";

const blockSchema = ethNodeObject(
  "EthBlock",
  "The node's eth_getBlockBy* object, streamed unchanged; `transactions` holds hashes, or full transaction objects with `fullTransactions=true`.",
);
const fullTransactionsQuery = z.object({
  fullTransactions: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Full transaction objects instead of hashes; default false." }),
});

export function registerEthBlockPaths(registry: OpenAPIRegistry): void {
  registerEthGetPath(
    registry,
    "/api/v1/eth/block/{block}",
    "Block by number (hex QUANTITY or decimal) or tag (eth_getBlockByNumber; streamed)",
    { params: z.object({ block: z.string().openapi({ example: "latest" }) }), query: fullTransactionsQuery },
    { 200: json("The block.", blockSchema), 400: ethBadRequest("Not a block number or tag, or a bad fullTransactions.") },
  );
  registerEthGetPath(
    registry,
    "/api/v1/eth/block/hash/{blockHash}",
    "Block by hash (eth_getBlockByHash; streamed)",
    { params: z.object({ blockHash: z.string() }), query: fullTransactionsQuery },
    { 200: json("The block.", blockSchema), 400: ethBadRequest("Not a 32-byte hash, or a bad fullTransactions.") },
  );
}
