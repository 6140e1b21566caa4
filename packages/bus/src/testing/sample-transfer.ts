/** A valid `transfer.matched` payload for the bus's tests; `overrides` replace its fields. */
import { randomBytes } from "node:crypto";
import type { BlockTransferPayload } from "@chaingate/contracts";

export function sampleTransfer(overrides: Partial<BlockTransferPayload> = {}): BlockTransferPayload {
  return {
    event_id: "evt-1",
    webhook_id: 7,
    coin: "BTC",
    currency: "BTC",
    from: null,
    to: "bc1qwatched",
    watched_address: "bc1qwatched",
    amount: "0.5",
    raw_amount: "50000000",
    decimals: 8,
    token_contract: null,
    txid: randomBytes(32).toString("hex"),
    position: 0,
    block: { height: 1, hash: "00ab", time: "2026-11-21T00:00:00.000Z" },
    execution_status: "SUCCESS",
    type: "transfer",
    confirmations: 1,
    ...overrides,
  };
}
