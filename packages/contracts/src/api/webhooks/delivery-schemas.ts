/** The delivery log and replay (`/api/v1/webhooks/{webhook}/deliveries*`): its query and its answers. */
import { z } from "../../zod.ts";
import { webhookListQuerySchema } from "./webhook-requests.ts";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "skipped", "held"] as const;

export const deliveryListQuerySchema = webhookListQuerySchema.extend({
  status: z.enum(DELIVERY_STATUSES, { error: `The selected status is invalid (${DELIVERY_STATUSES.join(", ")}).` }).optional(),
});

export const deliveryAttemptSchema = z
  .object({
    attempt: z.number().int(),
    status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The subscriber's HTTP status; null when no answer came (timeout, refused, SSRF guard)." }),
    latency_ms: z.number().int(),
    error: z.string().nullable().openapi({
      description:
        "What went wrong (null on a 2xx): `HTTP <status>`, a connection failure by its call and code (`connect ECONNREFUSED`), a timeout, or `the destination address is not allowed` (the connect-time address check). Never an IP address.",
    }),
    response_excerpt: z.string().nullable().openapi({ description: "The first 1,000 characters of the answer." }),
    created_at: z.iso.datetime(),
  })
  .openapi("DeliveryAttempt");

/** One attempt of a delivery, as the delivery log shows it. */
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const deliverySchema = z
  .object({
    id: z.number().int(),
    webhook_id: z.number().int(),
    event_id: z
      .string()
      .openapi({ description: "The notification's `event_id` and `webhook-id` header: stable across retries and replays." }),
    sequence: z.number().int().nullable().openapi({
      description:
        "The event's number in the webhook's history (`sequence` in the body, `x-service-sequence` header); null for test events and for events stored before numbering existed.",
    }),
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        "pending (waiting for an attempt), delivered (2xx), failed (retries used up, or 410), skipped (the webhook was deleted, or enabled again with `held_events: skip`), held (stored while the webhook was inactive: pushed or skipped when it is enabled again).",
    }),
    attempts: z.number().int(),
    next_attempt_at: z.iso.datetime().nullable(),
    payload: z.record(z.string(), z.unknown()).openapi({ description: "The notification body as sent." }),
    attempt_log: z.array(deliveryAttemptSchema),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("Delivery");

export const deliveryPageSchema = z
  .object({
    data: z.array(deliverySchema),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .openapi("DeliveryPage");

/** The 409 of a retry of a pending delivery. */
export const deliveryPendingErrorSchema = z
  .object({
    message: z.string(),
    status: z.enum(["pending"]).openapi({ description: "The delivery's status: only a pending delivery cannot be retried." }),
  })
  .openapi("DeliveryPendingError");
