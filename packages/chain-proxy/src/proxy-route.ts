/** What every handler of a chain proxy is built from. */
import type { BufferGarbageBound } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { NodeClient } from "@chaingate/node-client";

export interface ProxyRoute {
  node: NodeClient;
  logger: Logger;
  /** Bounds the dead read buffers of large streamed answers; absent for routes whose answers are small. */
  garbageBound?: BufferGarbageBound | undefined;
}
