/**
 * The `coverage` heartbeat (issue #30): at a processed block, a numbered event saying that every
 * event the scanner had found for blocks up to it was sent before it. With `confirmations` N a
 * transfer is notified when its block is N deep, so the transfers covered are those in blocks up
 * to `confirmed_height` (height − N + 1). By the clock (`heartbeat_seconds`) the block is the newest
 * the scanner processed, and the event is named by its period instead, so a chain without new
 * blocks still gets one each period.
 */
import { NOTIFICATION_VERSION, type Coin } from "@chaingate/contracts";

export interface ProcessedBlock {
  coin: Coin;
  /** CAIP-2; absent in a `block.processed` published before the scanner said its chain. */
  chain?: string | undefined;
  height: number;
  hash: string;
  time: string;
}

/** The id of a block's heartbeat (`heartbeat_blocks`): one per webhook and block. */
export const blockCoverageEventId = (webhookId: number, block: ProcessedBlock) =>
  `evt_cov_${webhookId}_${block.coin.toLowerCase()}_${block.height}_${block.hash}`;

/** The id of a clock heartbeat (`heartbeat_seconds`): one per webhook and period (the epoch second over the period, rounded down). */
export const clockCoverageEventId = (webhookId: number, coin: Coin, period: number) =>
  `evt_cov_${webhookId}_${coin.toLowerCase()}_t${period}`;

export function coverageEventBody(
  webhookId: number,
  block: ProcessedBlock,
  confirmations: number,
  eventId = blockCoverageEventId(webhookId, block),
) {
  return {
    event_id: eventId,
    type: "coverage" as const,
    version: NOTIFICATION_VERSION,
    webhook_id: webhookId,
    coin: block.coin,
    chain: block.chain ?? null,
    block: { height: block.height, hash: block.hash, time: block.time },
    confirmed_height: Math.max(0, block.height - confirmations + 1),
  };
}
