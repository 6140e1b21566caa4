/** What GET /api/v1/eth/health reads from the node: its latest block number (eth_blockNumber). */
import type { HealthProbe } from "@chaingate/chain-proxy";

export const ethHealthProbe: HealthProbe<string> = {
  read: (node, signal) => node.call<string>("eth_blockNumber", [], { signal }),
  describe: (blockNumber) => ({ blockNumber }),
};
