/**
 * The `transfer.matched` payload of a match, with its deterministic event id: the same block
 * processed twice (a crash, a second replica) yields the same ids, and JetStream drops the copy.
 */
import { createHash } from "node:crypto";
import type { EventPayload, transferMatched } from "@chaingate/contracts";
import type { BlockHeader, Match } from "./transfer.ts";

export type TransferEvent = EventPayload<typeof transferMatched>;
export type TransferEventType = TransferEvent["type"];

/**
 * `evt_` + 32 hex digits of SHA-256 over the type, the transfer's identity (coin, txid, position,
 * currency), the webhook and the block hash: a revert is a new id, and so is the same transfer
 * mined again in another block.
 */
export function transferEventId(type: TransferEventType, match: Match, blockHash: string): string {
  const t = match.transfer;
  const identity = [type, t.coin, t.txid, t.position ?? "-", t.currency, match.webhookId, blockHash].join("|");
  return `evt_${createHash("sha256").update(identity).digest("hex").slice(0, 32)}`;
}

export function transferEvent(type: TransferEventType, match: Match, block: Pick<BlockHeader, "height" | "hash" | "timeMs">, confirmations: number): TransferEvent {
  const t = match.transfer;
  return {
    event_id: transferEventId(type, match, block.hash),
    type,
    webhook_id: match.webhookId,
    coin: t.coin,
    currency: t.currency,
    from: t.from,
    to: t.to,
    watched_address: match.watchedAddress,
    amount: t.amount,
    raw_amount: t.rawAmount,
    decimals: t.decimals,
    token_contract: t.tokenContract,
    txid: t.txid,
    position: t.position,
    block: { height: block.height, hash: block.hash, time: new Date(block.timeMs).toISOString() },
    execution_status: t.executionStatus,
    confirmations,
  };
}
