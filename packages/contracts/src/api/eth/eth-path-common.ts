/**
 * What the Ethereum paths of the OpenAPI document share: tag and security, the node's failure
 * answer, the node's own objects as named schemas, and the registration of a node-backed GET.
 */
import { nodeErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, SECURITY, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";

/** Tag and security of every Ethereum path. */
export const ETH_PATH_COMMON = { tags: ["Ethereum"], security: SECURITY };

/** The 500 of every node-backed Ethereum endpoint. */
export const ethNodeFailure = json(
  "The node failed: the generic message `Could not connect to ETH node.` (compatibility) with `details.reason`: not_found (no such block, transaction or receipt), invalid_argument, node_error (a node refusal, with the node's code and message), node_unreachable or not_configured.",
  nodeErrorSchema,
);

/** A 400 `{error}` of a bad path or query parameter. */
export const ethBadRequest = (description: string) => json(description, z.object({ error: z.string() }));

/** One of the node's JSON-RPC objects, passed through unchanged, as a named schema. */
export const ethNodeObject = (name: string, description: string) => z.record(z.string(), z.unknown()).openapi(name, { description });

/** Registers a node-backed GET: its own answers, then the node's 500 and the gateway's. */
export function registerEthGetPath(
  registry: OpenAPIRegistry,
  path: string,
  summary: string,
  request: Record<string, unknown>,
  responses: Record<number, unknown>,
): void {
  registry.registerPath({
    ...ETH_PATH_COMMON,
    method: "get",
    path,
    summary,
    request,
    responses: { ...responses, 500: ethNodeFailure, ...GATEWAY_RESPONSES } as never,
  });
}
