/** POST /api/v1/btc/jsonrpc (the allow-listed JSON-RPC 1.0 proxy) in the OpenAPI document. */
import { jsonRpcErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { BTC_PATH_COMMON } from "./btc-path-common.ts";
import { BTC_JSONRPC_ALLOWED_METHODS, BTC_JSONRPC_MAX_BATCH_CALLS } from "./btc-requests.ts";

const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.string().optional(),
    method: z.string(),
    params: z.array(z.unknown()),
    id: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .openapi("BtcJsonRpcRequest");

export function registerBtcJsonRpcPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...BTC_PATH_COMMON,
    method: "post",
    path: "/api/v1/btc/jsonrpc",
    summary: `Allow-listed JSON-RPC 1.0 proxy (single call or a batch of at most ${BTC_JSONRPC_MAX_BATCH_CALLS})`,
    description: `Allowed: ${BTC_JSONRPC_ALLOWED_METHODS.join(", ")}. Any other method (every wallet method) is refused with 403 and -32601 before the node is contacted; one disallowed call refuses the whole batch. \`params\` is required (an array). Forwarded as JSON-RPC 1.0, re-encoded from the parsed request.`,
    request: { body: { content: { "application/json": { schema: z.union([jsonRpcRequestSchema, z.array(jsonRpcRequestSchema)]) } } } },
    responses: {
      200: json(
        "The node answered: its envelope, or an array of envelopes for a batch (match by id; per-call errors inside).",
        z.unknown(),
      ),
      400: json(
        `-32700 unparseable body; -32600 missing method, missing params, empty batch or a batch over ${BTC_JSONRPC_MAX_BATCH_CALLS}.`,
        jsonRpcErrorSchema,
      ),
      403: json("-32601: a method outside the allow-list.", jsonRpcErrorSchema),
      500: json(
        "The node refused the call: `{result: null, error: {code, message}, id}` with the node's code; or the node is not configured (-32603, no result member).",
        z.unknown(),
      ),
      502: json("The node is unreachable: -32603.", jsonRpcErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
