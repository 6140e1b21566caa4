/**
 * What GET /api/v1/trx/health reads from the node: its head and solidified blocks (getblock
 * without transactions on /wallet and /walletsolidity). `head_age_seconds` shows a node that
 * stopped syncing (mainnet: a block every 3 s).
 */
import type { HealthProbe } from "@chaingate/chain-proxy";

interface BlockHeader {
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
}

export const trxHealthProbe: HealthProbe<{ head: BlockHeader; solid: BlockHeader }> = {
  async read(node, signal) {
    const [head, solid] = await Promise.all([
      node.request<BlockHeader>("/wallet/getblock", { body: { detail: false }, signal }),
      node.request<BlockHeader>("/walletsolidity/getblock", { body: { detail: false }, signal }),
    ]);
    return { head, solid };
  },
  describe({ head, solid }, now) {
    const headRaw = head.block_header?.raw_data;
    return {
      block: headRaw?.number ?? 0,
      block_time: headRaw?.timestamp === undefined ? null : new Date(headRaw.timestamp).toISOString(),
      head_age_seconds: headRaw?.timestamp === undefined ? null : Math.max(0, Math.round((now.getTime() - headRaw.timestamp) / 1000)),
      solidified_block: solid.block_header?.raw_data?.number ?? 0,
    };
  },
};
