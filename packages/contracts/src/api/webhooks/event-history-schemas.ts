/**
 * A webhook's event history by cursor (`GET /api/v1/webhooks/{webhook}/events`): every numbered
 * event it was sent, oldest first, as it was pushed, with the headers that sign it.
 */
import { z } from "../../zod.ts";
import { DELIVERY_STATUSES } from "./delivery-schemas.ts";

export const EVENT_PAGE_DEFAULT = 100;
export const EVENT_PAGE_MAX = 500;

export const webhookEventsQuerySchema = z.object({
  after: z
    .string()
    .regex(/^[0-9]{1,15}$/, { error: "The after field must be a whole number of at most 15 digits." })
    .transform(Number)
    .default(0)
    .openapi({
      type: "integer",
      minimum: 0,
      default: 0,
      description:
        "The last sequence you have (0 for the start): the page begins with the event numbered `after + 1`. Pass the previous page's `meta.next_after`. A number not yet given is a 422; one whose successors the retention deleted is a 410.",
    }),
  limit: z
    .string()
    .regex(/^-?[0-9]{1,16}$/, { error: "The limit field must be an integer." })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: "The limit field must be at least 1." })
        .max(EVENT_PAGE_MAX, { error: `The limit field must not be greater than ${EVENT_PAGE_MAX}.` }),
    )
    .default(EVENT_PAGE_DEFAULT)
    .openapi({ type: "integer", minimum: 1, maximum: EVENT_PAGE_MAX, default: EVENT_PAGE_DEFAULT, description: "Events per page." }),
});

export const webhookEventSchema = z
  .object({
    sequence: z
      .number()
      .int()
      .positive()
      .openapi({ description: "The event's number in this webhook's history: 1, 2, 3, … without gaps." }),
    event_id: z.string().openapi({ description: "The body's `event_id` and the `webhook-id` header." }),
    delivery_id: z
      .number()
      .int()
      .openapi({ description: "Its delivery in `GET /api/v1/webhooks/{webhook}/deliveries` (attempts, status, retry)." }),
    status: z.enum(DELIVERY_STATUSES).openapi({ description: "Its delivery's status now (see `Delivery`)." }),
    created_at: z.iso.datetime().openapi({ description: "When the event was stored for this webhook." }),
    body: z.string().openapi({
      description:
        "The notification body exactly as it is pushed (the raw bytes the signatures cover): parse it as JSON, after verifying it with `headers` the way a push is verified.",
    }),
    headers: z.record(z.string(), z.string()).openapi({
      description:
        "The headers a push of this body would carry now, signed with the current secret at the time of this answer: `x-service-timestamp`, `x-service-signature`, `webhook-id`, `webhook-timestamp`, `webhook-signature`, `x-service-sequence`.",
    }),
  })
  .openapi("WebhookEvent");

export const webhookEventPageSchema = z
  .object({
    data: z.array(webhookEventSchema),
    meta: z.object({
      after: z.number().int().openapi({ description: "The cursor this page was read from." }),
      next_after: z
        .number()
        .int()
        .openapi({ description: "The cursor of the next page: the last sequence on this page, or `after` when it is empty." }),
      newest_sequence: z.number().int().openapi({ description: "The newest sequence given so far (0 when none)." }),
      oldest_sequence: z
        .number()
        .int()
        .openapi({ description: "The oldest sequence still kept; earlier ones were deleted after the retention period." }),
      has_more: z.boolean().openapi({ description: "True when events after `next_after` exist: read on at once." }),
    }),
  })
  .openapi("WebhookEventPage");

/** The 410 of a cursor whose successors the retention deleted. */
export const eventsPrunedErrorSchema = z
  .object({
    message: z.string(),
    oldest_sequence: z
      .number()
      .int()
      .openapi({ description: "The oldest sequence still kept: read on from it (`after = oldest_sequence - 1`)." }),
  })
  .openapi("EventsPrunedError");
