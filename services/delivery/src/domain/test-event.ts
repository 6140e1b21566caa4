/**
 * The test event (`POST /webhooks/{id}/test`): shaped like a transfer notification, every field a
 * receiver's crediting code reads present, so that code can be exercised end to end, but `type`
 * "test", `test` true and an amount of zero, so a receiver that forgets to check credits nothing.
 * Not numbered (no `sequence`): it is not part of the webhook's history.
 */
import type { ChainEntry } from "@chaingate/chain-registry";
import { NOTIFICATION_VERSION } from "@chaingate/contracts";

export function testEventBody(
  eventId: string,
  webhookId: number,
  { coin, native }: Pick<ChainEntry, "coin" | "native">,
  watchedAddress: string | null,
  now: Date,
) {
  return {
    event_id: eventId,
    type: "test" as const,
    test: true as const,
    version: NOTIFICATION_VERSION,
    webhook_id: webhookId,
    coin,
    // The delivery service does not read nodes: a test event names no chain.
    chain: null,
    currency: native.symbol,
    from: null,
    to: watchedAddress ?? "",
    watched_address: watchedAddress ?? "",
    direction: "in" as const,
    xpub: null,
    amount: "0",
    raw_amount: "0",
    decimals: native.decimals,
    token_contract: null,
    txid: "0".repeat(64),
    position: null,
    internal: false,
    trace_address: null,
    block: { height: 0, hash: "0".repeat(64), time: now.toISOString() },
    execution_status: "SUCCESS",
    confirmations: 1,
    generation: 0,
    created_at: now.toISOString(),
  };
}
