/** What every eth-proxy handler is built from. */
import type { BufferGarbageBound } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { NodeClient } from "@chaingate/node-client";

export interface NodeRoute {
  node: NodeClient;
  logger: Logger;
  garbageBound?: BufferGarbageBound;
}
