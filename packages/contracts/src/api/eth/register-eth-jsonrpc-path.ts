/** POST /api/v1/eth/jsonrpc (the allow-listed JSON-RPC 2.0 proxy) in the OpenAPI document. */
import { jsonRpcErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { ETH_PATH_COMMON } from "./eth-path-common.ts";
import { ETH_JSONRPC_ALLOWED_METHODS, ETH_JSONRPC_MAX_BATCH_CALLS } from "./eth-requests.ts";

const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.string().optional(),
    method: z.string(),
    params: z.array(z.unknown()).optional(),
    id: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .openapi("EthJsonRpcRequest");

export function registerEthJsonRpcPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...ETH_PATH_COMMON,
    method: "post",
    path: "/api/v1/eth/jsonrpc",
    summary: `Allow-listed JSON-RPC 2.0 proxy (single call or a batch of at most JSONRPC_MAX_BATCH calls, default ${ETH_JSONRPC_MAX_BATCH_CALLS})`,
    description: `Allowed: ${ETH_JSONRPC_ALLOWED_METHODS.join(", ")}. Anything else (eth_sendTransaction, eth_sign*, eth_accounts, personal_*, admin_*, debug_*, miner_*, txpool_*, hardhat_*, evm_*, filters, subscriptions, unknown names) is refused with 403 and -32601 before the node is contacted; one refused call refuses the whole batch. Forwarded as JSON-RPC 2.0, re-encoded from the parsed request; \`params\` may be omitted. A batch is checked as a whole, sent to the node in chunks of its own batch limit (ETH_RPC_MAX_BATCH) and answered as one array in request order. Answers carry the node's own Content-Type.`,
    request: { body: { content: { "application/json": { schema: z.union([jsonRpcRequestSchema, z.array(jsonRpcRequestSchema)]) } } } },
    responses: {
      200: json(
        "The node answered: its envelope, or an array of envelopes in request order (ids echoed; per-call errors inside).",
        z.unknown(),
      ),
      400: json(
        `-32700 unparseable body; -32600 missing method, empty batch or a batch over JSONRPC_MAX_BATCH (default ${ETH_JSONRPC_MAX_BATCH_CALLS}).`,
        jsonRpcErrorSchema,
      ),
      403: json("-32601: a method outside the allow-list.", jsonRpcErrorSchema),
      500: json("The node is not configured: -32603.", jsonRpcErrorSchema),
      502: json("The node is unreachable: -32603.", jsonRpcErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
