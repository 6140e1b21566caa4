/**
 * The `coverage` heartbeat (issue #30): at a processed block, a numbered event saying that every
 * event the scanner had found for blocks up to it was sent before it. With `confirmations` N a
 * transfer is notified when its block is N deep, so the transfers covered are those in blocks up
 * to `confirmed_height` (height − N + 1).
 */
import type { Coin } from "@chaingate/contracts";

export interface ProcessedBlock {
  coin: Coin;
  height: number;
  hash: string;
  time: string;
}

export function coverageEventBody(webhookId: number, block: ProcessedBlock, confirmations: number) {
  return {
    event_id: `evt_cov_${webhookId}_${block.coin.toLowerCase()}_${block.height}_${block.hash}`,
    type: "coverage" as const,
    webhook_id: webhookId,
    coin: block.coin,
    block: { height: block.height, hash: block.hash, time: block.time },
    confirmed_height: Math.max(0, block.height - confirmations + 1),
  };
}
