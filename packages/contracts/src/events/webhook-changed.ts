import { z } from "../zod.ts";
import { COINS, type EventContract } from "./event-contract.ts";

/** `webhook.changed`: the delivery service's registry changed; the scanner updates its watch index. */
export const webhookChangedSchema = z.object({
  webhook_id: z.number().int().positive(),
  coin: z.enum(COINS),
  addresses: z.array(z.string()),
  is_active: z.boolean(),
  deleted: z.boolean(),
  /** Monotonic per webhook (e.g. its updated_at in ms); consumers ignore older versions. */
  version: z.number().int().nonnegative(),
  /** Depth a transfer's block must reach before it is notified; absent = 1 (notified when processed). */
  confirmations: z.number().int().positive().optional(),
  /** ETH only: also notify ERC-20 Transfer logs of the scanner's token whitelist; absent = false (v1). */
  include_tokens: z.boolean().optional(),
});

export const webhookChanged = {
  name: "webhook.changed",
  stream: "WEBHOOKS",
  streamSubjects: "webhook.changed",
  schema: webhookChangedSchema,
  subject: () => "webhook.changed",
  messageId: (p) => `webhook:${p.webhook_id}:${p.version}`,
} satisfies EventContract<typeof webhookChangedSchema>;
