/** What the Tron paths of the OpenAPI document share: tag and security, the `{error}` body and the node's failure answer. */
import { nodeErrorSchema } from "../error-bodies.ts";
import { json, SECURITY } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";

/** Tag and security of every Tron path. */
export const TRX_PATH_COMMON = { tags: ["Tron"], security: SECURITY };

/** `{error, details?}`: the trx-proxy's own refusals. */
export const trxErrorSchema = z.object({ error: z.string(), details: z.record(z.string(), z.unknown()).optional() });

/** The 500 of every node-backed Tron endpoint. */
export const trxNodeFailure = json(
  "The node failed: `Could not connect to TRX node.` with `details.reason` (not_found, invalid_argument, node_error with the node's message, node_unreachable, not_configured).",
  nodeErrorSchema,
);
