import { z } from "../zod.ts";
import { COINS, coinSubject, type EventContract } from "./event-contract.ts";

/**
 * `transfer.matched.<coin>`: one transfer × one webhook. `event_id` is stable across retries and
 * re-scans, and is the notification's idempotency key for subscribers.
 */
export const transferMatchedSchema = z.object({
  event_id: z.string().min(1),
  webhook_id: z.number().int().positive(),
  coin: z.enum(COINS),
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
  /** Output index (BTC) or log index (token transfers); null for a native account transfer. */
  position: z.number().int().nonnegative().nullable(),
  block: z.object({ height: z.number().int().nonnegative(), hash: z.string(), time: z.iso.datetime() }),
  /** e.g. "SUCCESS", or Tron's contractRet such as "OUT_OF_ENERGY". */
  execution_status: z.string(),
});

export const transferMatched = {
  name: "transfer.matched",
  stream: "TRANSFERS",
  streamSubjects: "transfer.matched.>",
  schema: transferMatchedSchema,
  subject: (payload) => coinSubject("transfer.matched", payload.coin),
  messageId: (p) => `match:${p.coin}:${p.txid}:${p.position ?? "-"}:${p.webhook_id}`,
} satisfies EventContract<typeof transferMatchedSchema>;
