import { z } from "../zod.ts";
import { coinSchema, coinSubject, type EventContract } from "./event-contract.ts";

/** `delivery.failed.<coin>`: a notification used up all its retries (counts one failure). */
export const deliveryFailedSchema = z.object({
  webhook_id: z.number().int().positive(),
  event_id: z.string().min(1),
  coin: coinSchema,
  attempts: z.number().int().positive(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
});

export const deliveryFailed = {
  name: "delivery.failed",
  stream: "DELIVERY_FAILURES",
  streamSubjects: "delivery.failed.>",
  schema: deliveryFailedSchema,
  subject: (payload) => coinSubject("delivery.failed", payload.coin),
  messageId: (p) => `delivery-failed:${p.webhook_id}:${p.event_id}`,
} satisfies EventContract<typeof deliveryFailedSchema>;
