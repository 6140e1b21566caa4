/**
 * The `transfer.matched` payload of a match, with its deterministic event id: the same block
 * processed twice (a crash, a second replica) yields the same ids, and JetStream drops the copy.
 */
import { createHash } from "node:crypto";
import { directionOf, type BlockTransferPayload } from "@chaingate/contracts";
import type { BlockHeader, Match } from "./transfer.ts";

export type TransferEvent = BlockTransferPayload;
export type TransferEventType = TransferEvent["type"];

/**
 * `evt_` + 32 hex digits of SHA-256 over the type, the transfer's identity (coin, txid, position,
 * currency), the webhook, the block hash and, from the first revert on, the generation: a revert
 * is a new id, so is the same transfer mined again in another block, and so is the same block
 * coming back after it was reverted (A→B→A). Generation 0 leaves the id as it always was.
 * The generation counts the transfer's reverts in any block (see transferKey).
 */
export function transferEventId(type: TransferEventType, match: Match, blockHash: string, generation = 0): string {
  const t = match.transfer;
  const identity = [type, t.coin, t.txid, t.position ?? "-", t.currency, match.webhookId, blockHash];
  if (generation > 0) identity.push(`g${generation}`);
  return `evt_${createHash("sha256").update(identity.join("|")).digest("hex").slice(0, 32)}`;
}

/**
 * What a transfer to a webhook is, in whichever block it lands: coin, txid, position, currency and
 * webhook. Revert counts (generations) are kept under it, so a transfer reverted and then notified
 * again, in the same block or another, always comes back under a higher generation.
 */
export function transferKey(match: Match): string {
  const t = match.transfer;
  return createHash("sha256")
    .update([t.coin, t.txid, t.position ?? "-", t.currency, match.webhookId].join("|"))
    .digest("hex")
    .slice(0, 32);
}

export function transferEvent(
  type: TransferEventType,
  match: Match,
  block: Pick<BlockHeader, "height" | "hash" | "timeMs">,
  confirmations: number,
  generation = 0,
): TransferEvent {
  const t = match.transfer;
  return {
    event_id: transferEventId(type, match, block.hash, generation),
    type,
    ...transferFields(match),
    internal: t.internal !== undefined,
    trace_address: t.internal?.traceAddress ?? null,
    block: { height: block.height, hash: block.hash, time: new Date(block.timeMs).toISOString() },
    execution_status: t.executionStatus,
    confirmations,
    generation,
  };
}

/** The fields of a transfer every event about it carries, block or mempool. */
export function transferFields(match: Match) {
  const t = match.transfer;
  return {
    webhook_id: match.webhookId,
    coin: t.coin,
    currency: t.currency,
    from: t.from,
    to: t.to,
    watched_address: match.watchedAddress,
    // A match stored before matches kept their side.
    direction: match.direction ?? directionOf({ watched_address: match.watchedAddress, to: t.to }),
    amount: t.amount,
    raw_amount: t.rawAmount,
    decimals: t.decimals,
    token_contract: t.tokenContract,
    txid: t.txid,
    position: t.position,
  };
}
