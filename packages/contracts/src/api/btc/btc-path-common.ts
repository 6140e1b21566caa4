/** What every Bitcoin path of the OpenAPI document shares: its tag, its security and the node's failure answer. */
import { nodeErrorSchema } from "../error-bodies.ts";
import { json, SECURITY } from "../../openapi/openapi-registry.ts";

/** Tag and security of every Bitcoin path. */
export const BTC_PATH_COMMON = { tags: ["Bitcoin"], security: SECURITY };

/** The 500 of every node-backed Bitcoin endpoint. */
export const btcNodeFailure = json(
  "The node failed: the generic message `Could not connect to BTC node.` (compatibility) with `details.reason` telling an unknown id (not_found), a bad argument (invalid_argument), a node refusal (node_error, with the node's code), an outage (node_unreachable) or a missing node configuration (not_configured).",
  nodeErrorSchema,
);
