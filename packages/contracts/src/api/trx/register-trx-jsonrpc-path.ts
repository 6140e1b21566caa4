/** POST /api/v1/trx/jsonrpc (java-tron's eth-compatible JSON-RPC, read methods only) in the OpenAPI document. */
import { jsonRpcErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON } from "./trx-path-common.ts";
import { TRX_JSONRPC_MAX_BATCH_CALLS } from "./trx-requests.ts";

export function registerTrxJsonRpcPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "post",
    path: "/api/v1/trx/jsonrpc",
    summary: `java-tron's eth-compatible JSON-RPC 2.0, read methods only (a single call or a batch of at most JSONRPC_MAX_BATCH calls, default ${TRX_JSONRPC_MAX_BATCH_CALLS.toLocaleString("en")})`,
    description:
      "A batch is checked as a whole, sent to the node in chunks of its own batch limit (TRON_NODE_MAX_BATCH) and answered as one array in request order. Answers carry the node's own Content-Type.",
    request: {
      body: {
        content: {
          "application/json": { schema: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]) },
        },
      },
    },
    responses: {
      200: json(
        "The node's answer (an envelope, or an array of them in request order; method errors in `error`).",
        z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]),
      ),
      400: json("-32700 unparseable, -32600 invalid request, an empty batch or one over JSONRPC_MAX_BATCH.", jsonRpcErrorSchema),
      403: json("-32601: a method this proxy does not forward; the node was not contacted.", jsonRpcErrorSchema),
      500: json("-32603: the node is not configured.", jsonRpcErrorSchema),
      502: json("-32603: the node is unreachable.", jsonRpcErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
