import { z } from "../zod.ts";
import { coinSchema, coinSubject, type EventContract } from "./event-contract.ts";

/**
 * `address.issued.<coin>`: the xpub service issued an address from a registered extended key. The
 * delivery service adds it to every webhook of the same account that auto-watches that key.
 * Published from the xpub service's outbox after the address is stored, so none is lost.
 */
export const addressIssuedSchema = z.object({
  account_id: z.number().int().positive(),
  /** The extended-key record the address was derived from (the xpub service's id). */
  xpub_id: z.number().int().positive(),
  coin: coinSchema,
  /** As issued: bech32 for BTC; for ETH the lower-case form (webhook matching compares lower case). */
  address: z.string().min(1),
  index: z.number().int().nonnegative(),
  issued_at: z.iso.datetime(),
});

export const addressIssued = {
  name: "address.issued",
  stream: "ADDRESSES",
  streamSubjects: "address.issued.>",
  schema: addressIssuedSchema,
  subject: (payload) => coinSubject("address.issued", payload.coin),
  messageId: (p) => `issued:${p.coin}:${p.xpub_id}:${p.index}`,
} satisfies EventContract<typeof addressIssuedSchema>;
