/**
 * Mempool events (issue #29): "pending" for a transfer seen in the node's mempool, then at most one
 * of "replaced", "dropped", "double_spent" (or none: mined, its "transfer" is the outcome). Ids are
 * deterministic per (type, transfer, webhook, generation), so a restart that sees the same mempool
 * publishes the same ids and JetStream and the delivery drop the copies.
 */
import { createHash } from "node:crypto";
import type { MempoolTransferPayload } from "@chaingate/contracts";
import { transferFields } from "../transfer-event.ts";
import type { Match } from "../transfer.ts";

export type MempoolEvent = MempoolTransferPayload;
export type MempoolEventType = MempoolEvent["type"];
export type MempoolOutcome = Exclude<MempoolEventType, "pending">;

/** What the node says of a transaction in its mempool. */
export interface MempoolDetails {
  /** BTC: BIP125 replaceable (itself or an unconfirmed ancestor); ETH: always. */
  replaceable: boolean;
  /** BTC: sat/vB; ETH: gwei; null when unknown. */
  feeRate: string | null;
}

/** A transfer as its events name it: the fields of transferKey, in the event's own words. */
type TransferIdentity = Pick<MempoolEvent, "coin" | "txid" | "position" | "currency" | "webhook_id">;

export function mempoolEventId(type: MempoolEventType, transfer: TransferIdentity, generation: number): string {
  const t = transfer;
  const identity = ["mempool", type, t.coin, t.txid, t.position ?? "-", t.currency, t.webhook_id, `g${generation}`];
  return `evt_${createHash("sha256").update(identity.join("|")).digest("hex").slice(0, 32)}`;
}

export function pendingEvent(match: Match, details: MempoolDetails, seenAtMs: number, generation: number): MempoolEvent {
  const fields = transferFields(match);
  return {
    event_id: mempoolEventId("pending", fields, generation),
    type: "pending",
    ...fields,
    seen_at: new Date(seenAtMs).toISOString(),
    replaceable: details.replaceable,
    fee_rate: details.feeRate,
    conflicting_txid: null,
    generation,
  };
}

/** The outcome of an announced pending transfer: its "pending" event's fields under a new type and id. */
export function outcomeEvent(pending: MempoolEvent, type: MempoolOutcome, conflictingTxid: string | null): MempoolEvent {
  return {
    ...pending,
    event_id: mempoolEventId(type, pending, pending.generation ?? 0),
    type,
    conflicting_txid: conflictingTxid,
  };
}
