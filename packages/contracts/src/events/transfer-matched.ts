import { z } from "../zod.ts";
import { coinSchema, coinSubject, type EventContract } from "./event-contract.ts";

/**
 * `transfer.matched.<coin>`: one transfer × one webhook. `event_id` is stable across retries and
 * re-scans, and is the notification's idempotency key for subscribers.
 */
export const TRANSFER_EVENT_TYPES = ["transfer", "reverted"] as const;
/**
 * Mempool events (issue #29), for webhooks with `pending` on: "pending" when a transaction paying a
 * watched address enters the node's mempool, then at most one outcome of these three unless it is
 * mined (then the "transfer" is its outcome): "replaced", "dropped", "double_spent".
 */
export const MEMPOOL_EVENT_TYPES = ["pending", "replaced", "dropped", "double_spent"] as const;
export const TRANSFER_DIRECTIONS = ["in", "out"] as const;

/**
 * The chain as a CAIP-2 id, read from the node's own identity: `bip122:` and the genesis hash's first
 * 32 hex digits (Bitcoin), `eip155:` and the chain id (Ethereum), `tron:0x` and the genesis block id's
 * last 8 hex digits (Tron, the value of its `eth_chainId`). Mainnets: `bip122:000000000019d6689c085ae165831e93`,
 * `eip155:1`, `tron:0x2b6653dc`.
 */
export const chainIdSchema = z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/);

/**
 * The direction of a transfer that does not say it (published, or stored as a match, before
 * directions existed): "in" exactly when the watched address is the receiver, compared ignoring case.
 */
export function directionOf(transfer: { watched_address: string; to: string }): (typeof TRANSFER_DIRECTIONS)[number] {
  return transfer.watched_address.toLowerCase() === transfer.to.toLowerCase() ? "in" : "out";
}

export const blockTransferSchema = z.object({
  /** Deterministic per (type, transfer, webhook, block hash, generation): a re-scan yields the same id. */
  event_id: z.string().min(1),
  /**
   * "transfer": the transfer is in a block N deep. "reverted": a transfer notified earlier left the
   * best chain (reorg); same transfer fields, a new event id. Back in a later block it is notified
   * again as a new "transfer".
   */
  type: z.enum(TRANSFER_EVENT_TYPES),
  webhook_id: z.number().int().positive(),
  coin: coinSchema,
  /** The scanner always sets it; absent only in events published before it existed. */
  chain: chainIdSchema.optional(),
  /**
   * "in": the watched address received (it is `to`); "out": it sent (it is `from`). A webhook watching
   * both sides gets one event, "in". The scanner always sets it; absent only in events published
   * before it existed (then "in" exactly when `watched_address` is `to`).
   */
  direction: z.enum(TRANSFER_DIRECTIONS).optional(),
  /** Asset moved: "BTC", "ETH", "TRX", a TRC-10 id or a TRC-20 symbol such as "USDT". */
  currency: z.string().min(1),
  from: z.string().nullable(),
  to: z.string(),
  watched_address: z.string(),
  /** Decimal string in whole units, never a float. */
  amount: z.string().regex(/^\d+(\.\d+)?$/),
  /** Integer string in the smallest unit (satoshi, wei, sun, token units). */
  raw_amount: z.string().regex(/^\d+$/),
  decimals: z.number().int().nonnegative(),
  token_contract: z.string().nullable(),
  txid: z.string().min(1),
  /**
   * Output index (BTC), the log's index within its transaction (token transfers; before this was
   * stated, Ethereum events carried the index within the block), for an internal transfer its place in the
   * transaction (Ethereum: the call frame's index, depth first, top-level call 0; Tron: the index in
   * `internal_transactions`); null for a transaction's own native transfer.
   */
  position: z.number().int().nonnegative().nullable(),
  /**
   * True when a contract moved the value inside the transaction (an internal transfer: an Ethereum
   * call frame, a Tron internal transaction), false for the transaction's own transfer and token
   * logs. The scanner always sets it; absent in events published before it existed (read false).
   */
  internal: z.boolean().optional(),
  /** Ethereum internal transfers: the frame's call path ("0.2": the third call made by the first call); null otherwise. */
  trace_address: z.string().nullable().optional(),
  block: z.object({ height: z.number().int().nonnegative(), hash: z.string(), time: z.iso.datetime() }),
  /** e.g. "SUCCESS", or Tron's contractRet such as "OUT_OF_ENERGY". */
  execution_status: z.string(),
  /** Depth of the block when published (1 = the block itself is the tip the scanner processed). */
  confirmations: z.number().int().positive(),
  /**
   * How many times this transfer (webhook, txid, position, currency) was reverted before this
   * event, in any block: a transfer notified again after a revert (its block back, A→B→A, or the
   * transaction in another block) comes under the next generation, with a new event id. The last
   * word on a transfer is its event with the highest generation, and within one generation they
   * rank "pending", then its outcome ("replaced", "dropped", "double_spent"), then "transfer", then
   * "reverted" (TRANSFER_EVENT_RANK). The scanner always sets it; absent only in events published
   * before generations existed (read it as 0).
   */
  generation: z.number().int().nonnegative().optional(),
});

/**
 * A transfer seen in the node's mempool (no block yet), and what became of it. The transfer fields
 * are those of a block transfer; `block`, `execution_status` and `confirmations` are absent.
 */
export const mempoolTransferSchema = blockTransferSchema
  .omit({ type: true, block: true, execution_status: true, confirmations: true, internal: true, trace_address: true })
  .extend({
    /**
     * "pending": in the mempool. "replaced": left it for `conflicting_txid`, a transaction spending the
     * same inputs (BTC, BIP125) or the same sender and nonce (ETH), which may pay the address less or
     * nothing. "double_spent": a conflicting transaction (`conflicting_txid`) was mined. "dropped": it
     * left the mempool, and was neither mined nor replaced, for the documented time.
     */
    type: z.enum(MEMPOOL_EVENT_TYPES),
    /** When the scanner first saw it in the mempool. */
    seen_at: z.iso.datetime(),
    /** BTC: it signals BIP125 replaceability (itself or an unconfirmed ancestor); ETH: always true (any pending transaction can be replaced by its nonce). */
    replaceable: z.boolean(),
    /** BTC: sat/vB (decimal string); ETH: the gas price offered in gwei (`maxFeePerGas` or `gasPrice`); null when the node did not say. */
    fee_rate: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .nullable(),
    /** The transaction that took its place ("replaced", "double_spent"); null otherwise or when unknown. */
    conflicting_txid: z.string().nullable(),
  });

/** How events of one transfer and one generation rank: the highest is the last word. */
export const TRANSFER_EVENT_RANK: Record<(typeof TRANSFER_EVENT_TYPES)[number] | (typeof MEMPOOL_EVENT_TYPES)[number], number> = {
  pending: 0,
  replaced: 1,
  dropped: 1,
  double_spent: 1,
  transfer: 2,
  reverted: 3,
};

/** A "transfer"/"reverted" of a block, or a mempool event: one stream, so delivery numbers them in order. */
export const transferMatchedSchema = z.discriminatedUnion("type", [blockTransferSchema, mempoolTransferSchema]);

export type BlockTransferPayload = z.infer<typeof blockTransferSchema>;
export type MempoolTransferPayload = z.infer<typeof mempoolTransferSchema>;

/** True for a "transfer" or "reverted" (a block's), false for a mempool event. */
export function isBlockTransfer(event: BlockTransferPayload | MempoolTransferPayload): event is BlockTransferPayload {
  return event.type === "transfer" || event.type === "reverted";
}

export const transferMatched = {
  name: "transfer.matched",
  stream: "TRANSFERS",
  streamSubjects: "transfer.matched.>",
  schema: transferMatchedSchema,
  subject: (payload) => coinSubject("transfer.matched", payload.coin),
  // The event id names the type and the block too: a revert, or the same transfer back in another
  // block, is a new message, not a duplicate.
  messageId: (p) => `match:${p.coin}:${p.txid}:${p.position ?? "-"}:${p.webhook_id}:${p.event_id}`,
} satisfies EventContract<typeof transferMatchedSchema>;
