/** The trx-proxy's own error values beside the shared node-failure table (java-tron's errors carry a message, no code). */
import { nodeFailureResponse } from "@chaingate/chain-proxy";
import { nodeErrorCodes, tron } from "@chaingate/node-client";

export const TRX_CODES = nodeErrorCodes(tron.id);

/** An address (or hash) the proxy can tell is unparseable before asking the node. */
export const INVALID_ARGUMENT = nodeFailureResponse(tron, "invalid_argument");
