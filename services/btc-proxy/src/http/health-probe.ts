/** What GET /api/v1/btc/health reads from the node: its chain, height and sync progress (getblockchaininfo). */
import type { HealthProbe } from "@chaingate/chain-proxy";

interface BlockchainInfo {
  chain: string;
  blocks: number;
  headers: number;
  verificationprogress: number;
}

export const btcHealthProbe: HealthProbe<BlockchainInfo> = {
  read: (node, signal) => node.call<BlockchainInfo>("getblockchaininfo", [], { signal }),
  describe: (info) => ({ chain: info.chain, blocks: info.blocks, headers: info.headers, verificationProgress: info.verificationprogress }),
};
