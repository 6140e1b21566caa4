/**
 * The webhook registry (`/api/v1/webhooks*`, owned by the delivery service): request and response
 * schemas (in `webhooks/`), validated by the service and rendered into the OpenAPI document from the
 * same definitions by the two functions here.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "../zod.ts";
import { GATEWAY_RESPONSES, RETRY_AFTER_HEADER, SECURITY, json } from "../openapi/openapi-registry.ts";
import { messageErrorSchema } from "./error-bodies.ts";
import { WEBHOOK_ADDRESSES_PER_REQUEST, WEBHOOK_LIST_ADDRESS_CAP } from "./webhooks/webhook-limits.ts";
import {
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookAddressBatchSchema,
  webhookAddressPageQuerySchema,
  webhookListQuerySchema,
} from "./webhooks/webhook-requests.ts";
import { webhookAddressPageSchema, webhookPageSchema, webhookSchema } from "./webhooks/webhook-responses.ts";
import { dataOf, NOT_FOUND, TAG, VALIDATION, VALIDATION_OR_QUOTA, webhookIdParam } from "./webhooks/webhook-path-common.ts";
import { deliveryListQuerySchema, deliveryPageSchema, deliveryPendingErrorSchema, deliverySchema } from "./webhooks/delivery-schemas.ts";
import { eventsPrunedErrorSchema, webhookEventPageSchema, webhookEventsQuerySchema } from "./webhooks/event-history-schemas.ts";
import {
  coverageNotificationSchema,
  deliveryExhaustedNotificationSchema,
  mempoolNotificationSchema,
  testNotificationSchema,
  transferNotificationSchema,
  webhookDisabledNotificationSchema,
} from "./webhooks/notification-schemas.ts";
import {
  coverageNotificationExample,
  deliveryExhaustedNotificationExample,
  mempoolNotificationExample,
  testNotificationExample,
  transferNotificationExample,
  webhookDisabledNotificationExample,
} from "./webhooks/notification-examples.ts";

export {
  WEBHOOK_ADDRESS_MAX_CHARS,
  WEBHOOK_ADDRESS_PAGE_DEFAULT,
  WEBHOOK_ADDRESS_PAGE_MAX,
  WEBHOOK_ADDRESSES_PER_REQUEST,
  WEBHOOK_LIST_ADDRESS_CAP,
  WEBHOOK_MAX_PAGE,
  WEBHOOK_MAX_XPUB_IDS,
} from "./webhooks/webhook-limits.ts";
export {
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookAddressBatchSchema,
  webhookAddressPageQuerySchema,
  webhookListQuerySchema,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
} from "./webhooks/webhook-requests.ts";
export { COIN_INVALID_MESSAGE } from "./webhooks/webhook-fields.ts";
export { webhookAddressPageSchema, webhookPageSchema, webhookSchema, type Webhook } from "./webhooks/webhook-responses.ts";
export {
  DELIVERY_STATUSES,
  deliveryAttemptSchema,
  deliveryListQuerySchema,
  deliveryPageSchema,
  deliveryPendingErrorSchema,
  deliverySchema,
  type DeliveryAttempt,
} from "./webhooks/delivery-schemas.ts";
export {
  EVENT_PAGE_DEFAULT,
  EVENT_PAGE_MAX,
  eventsPrunedErrorSchema,
  webhookEventPageSchema,
  webhookEventSchema,
  webhookEventsQuerySchema,
} from "./webhooks/event-history-schemas.ts";
export {
  coverageNotificationSchema,
  deliveryExhaustedNotificationSchema,
  mempoolNotificationSchema,
  NOTIFICATION_VERSION,
  notificationSchema,
  testNotificationSchema,
  transferNotificationSchema,
  webhookDisabledNotificationSchema,
  type Notification,
} from "./webhooks/notification-schemas.ts";

/** Registers the webhook paths in the OpenAPI document. */
export function registerWebhookPaths(registry: OpenAPIRegistry): void {
  const base = "/api/v1/webhooks";
  const body = (schema: z.ZodType) => ({ body: { required: true, content: { "application/json": { schema } } } });
  registry.registerPath({
    method: "post",
    path: base,
    tags: TAG,
    summary: "Create a webhook",
    security: SECURITY,
    request: body(createWebhookRequestSchema),
    description: "The secret is generated. Watching begins at the next block the scanner processes.",
    responses: {
      201: json("`{data: webhook}`; `is_active` echoes the boolean sent (true when omitted).", dataOf(webhookSchema)),
      422: VALIDATION_OR_QUOTA,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "get",
    path: base,
    tags: TAG,
    summary: "List the account's webhooks",
    security: SECURITY,
    request: { query: webhookListQuerySchema },
    description: `Ordered by id; deleted webhooks never appear. Each webhook carries at most its first ${WEBHOOK_LIST_ADDRESS_CAP} addresses (see \`address_count\` and \`GET /api/v1/webhooks/{webhook}/addresses\`), so a page's size stays bounded whatever the webhooks watch; the answer is streamed, a few webhooks' addresses read at a time.`,
    responses: { 200: json("A page of webhooks.", webhookPageSchema), 422: VALIDATION, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    method: "get",
    path: `${base}/{webhook}`,
    tags: TAG,
    summary: "Get a webhook",
    security: SECURITY,
    request: { params: webhookIdParam },
    responses: { 200: json("`{data: webhook}`", dataOf(webhookSchema)), 404: NOT_FOUND, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    method: "put",
    path: `${base}/{webhook}`,
    tags: TAG,
    summary: "Update a webhook",
    security: SECURITY,
    request: { params: webhookIdParam, ...body(updateWebhookRequestSchema) },
    description:
      "Partial: each field sent replaces the stored value (addresses: the webhook's whole own list; the addresses issued by its `xpub_ids` stay watched), others are kept; `is_active: true` re-enables a disabled webhook and resets its failure count.",
    responses: { 200: json("`{data: webhook}`", dataOf(webhookSchema)), 404: NOT_FOUND, 422: VALIDATION_OR_QUOTA, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    method: "delete",
    path: `${base}/{webhook}`,
    tags: TAG,
    summary: "Delete a webhook",
    security: SECURITY,
    request: { params: webhookIdParam },
    description: "Soft delete: the webhook is never returned or notified again.",
    responses: { 204: { description: "Deleted." }, 404: NOT_FOUND, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    method: "post",
    path: `${base}/{webhook}/secret`,
    tags: TAG,
    summary: "Rotate the signing secret",
    security: SECURITY,
    request: { params: webhookIdParam },
    responses: {
      200: json("`{data: webhook}` with the new secret; the next delivery is signed with it.", dataOf(webhookSchema)),
      404: NOT_FOUND,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "post",
    path: `${base}/{webhook}/addresses`,
    tags: TAG,
    summary: "Add addresses",
    security: SECURITY,
    request: { params: webhookIdParam, ...body(webhookAddressBatchSchema) },
    description: `Adds up to ${WEBHOOK_ADDRESSES_PER_REQUEST} addresses; ones already watched are ignored.`,
    responses: {
      200: json("`{data: {added, total}}`", dataOf(z.object({ added: z.number().int(), total: z.number().int() }))),
      404: NOT_FOUND,
      422: VALIDATION_OR_QUOTA,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "get",
    path: `${base}/{webhook}/addresses`,
    tags: TAG,
    summary: "List a webhook's addresses",
    security: SECURITY,
    request: { params: webhookIdParam, query: webhookAddressPageQuerySchema },
    description:
      "Every watched address, in address order, a page at a time (a chaingate addition): how a client reads a webhook larger than the list answer's cap.",
    responses: { 200: json("A page of addresses.", webhookAddressPageSchema), 404: NOT_FOUND, 422: VALIDATION, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    method: "delete",
    path: `${base}/{webhook}/addresses`,
    tags: TAG,
    summary: "Remove addresses",
    security: SECURITY,
    request: { params: webhookIdParam, ...body(webhookAddressBatchSchema) },
    description: `Removes up to ${WEBHOOK_ADDRESSES_PER_REQUEST} addresses from the webhook's own list; ones not watched are ignored, and one issued by a key in its \`xpub_ids\` stays watched (not counted as removed). A webhook may end with no address.`,
    responses: {
      200: json("`{data: {removed, total}}`", dataOf(z.object({ removed: z.number().int(), total: z.number().int() }))),
      404: NOT_FOUND,
      422: VALIDATION,
      ...GATEWAY_RESPONSES,
    },
  });
}

/** Registers the delivery log, replay and test paths. */
export function registerDeliveryPaths(registry: OpenAPIRegistry): void {
  const base = "/api/v1/webhooks/{webhook}";
  registry.registerPath({
    method: "get",
    path: `${base}/deliveries`,
    tags: TAG,
    summary: "List deliveries (newest first)",
    security: SECURITY,
    request: { params: webhookIdParam, query: deliveryListQuerySchema },
    description:
      "Each notification job with its attempts. Finished deliveries are kept for the retention period (DELIVERY_RETENTION_DAYS, default 30), then deleted.",
    responses: { 200: json("A page of deliveries.", deliveryPageSchema), 404: NOT_FOUND, 422: VALIDATION, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    method: "get",
    path: `${base}/events`,
    tags: TAG,
    summary: "Read the webhook's events by sequence (catch-up cursor)",
    security: SECURITY,
    request: { params: webhookIdParam, query: webhookEventsQuerySchema },
    description:
      "Every numbered event the webhook was sent (transfers and reverts; not test events), oldest first, from `after + 1`: the bodies exactly as pushed, with the headers that sign them, so a subscriber verifies and handles them with the same code as pushes. A page costs the same however long the history. Events are kept DELIVERY_RETENTION_DAYS (default 30) from when they were stored, the oldest first; an event still being delivered is kept, with everything after it, until it finishes.",
    responses: {
      200: json("A page of events and the cursor to read on.", webhookEventPageSchema),
      404: NOT_FOUND,
      410: json(
        "`{message, oldest_sequence}`: events after `after` were deleted after the retention period; read on from `oldest_sequence - 1`.",
        eventsPrunedErrorSchema,
      ),
      422: VALIDATION,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "post",
    path: `${base}/deliveries/{delivery}/retry`,
    tags: TAG,
    summary: "Send a delivery again",
    security: SECURITY,
    request: {
      params: webhookIdParam.extend({ delivery: z.number().int().nonnegative().openapi({ description: "Delivery id.", example: 1 }) }),
    },
    description:
      "Queues a finished delivery (delivered, failed or skipped) again, the same notification with the same event id: a replay. It keeps its attempt count: the attempt it gets is its next one, and the retry schedule goes on only while attempts remain (9 in all), so once they are used each retry is a single attempt. A delivery that is pending (queued, waiting for its next attempt, or being sent) is not queued twice: 409. Re-sending a test event counts toward the webhook's test event quota.",
    responses: {
      202: json("`{data: delivery}`, pending.", dataOf(deliverySchema)),
      404: json("No such delivery of this webhook.", messageErrorSchema),
      409: json(
        "`{message, status}`: the delivery is pending (queued, waiting for its next attempt, or being sent); retry it once it has been delivered, has failed or was skipped.",
        deliveryPendingErrorSchema,
      ),
      ...GATEWAY_RESPONSES,
      429: {
        ...json(
          "`{message}` with `Retry-After`: the delivery is a test event and the webhook queued QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE test events (default 10) in the last 60 seconds; or the gateway's opt-in per-key rate limit (off by default).",
          messageErrorSchema,
        ),
        headers: RETRY_AFTER_HEADER,
      },
    },
  });
  registry.registerPath({
    method: "post",
    path: `${base}/test`,
    tags: TAG,
    summary: "Send a signed test event",
    security: SECURITY,
    request: { params: webhookIdParam },
    description:
      'Queues a `TestNotification`: shaped like a transfer (the webhook\'s first address, amount "0", a zero txid and block) with `type: "test"` and `test: true`, signed and retried like any notification (also when the webhook is inactive), not numbered.',
    responses: {
      202: json("`{data: delivery}`, pending.", dataOf(deliverySchema)),
      404: NOT_FOUND,
      ...GATEWAY_RESPONSES,
      429: {
        ...json(
          "`{message}` with `Retry-After`: the webhook queued QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE test events (default 10) in the last 60 seconds; or the gateway's opt-in per-key rate limit (off by default).",
          messageErrorSchema,
        ),
        headers: RETRY_AFTER_HEADER,
      },
    },
  });
}

/** Registers what chaingate POSTs to a webhook's URL (the document's `webhooks`), one entry per event type. */
export function registerNotificationWebhooks(registry: OpenAPIRegistry): void {
  const headers = z.object({
    "x-service-timestamp": z.string().openapi({ description: "Unix seconds; signed." }),
    "x-service-signature": z.string().openapi({ description: 'Hex HMAC-SHA256(secret, timestamp + "." + raw body), the spec\'s scheme.' }),
    "webhook-id": z.string().openapi({ description: "The event id (Standard Webhooks): stable across retries and replays." }),
    "webhook-timestamp": z.string(),
    "webhook-signature": z.string().openapi({ description: "Standard Webhooks `v1,<base64>` signatures, space separated." }),
    "x-service-sequence": z.string().optional().openapi({ description: "The body's `sequence` (absent on test events)." }),
  });
  const answers = {
    200: { description: "Any 2xx: delivered." },
    410: {
      description:
        "Stop retrying this event (it is marked failed at once, counts toward auto-disable, and reports no `delivery.exhausted`).",
    },
    default: {
      description:
        "Anything else, or no answer within 15 s: retried (immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; ±20 %; a longer `Retry-After` wins).",
    },
  };
  const events: Array<[string, string, string, z.ZodType, object]> = [
    [
      "transfer",
      "TransferNotification",
      "A transfer, or a revert of one (`type` transfer | reverted)",
      transferNotificationSchema,
      transferNotificationExample,
    ],
    [
      "pending",
      "MempoolNotification",
      "A transfer seen in the mempool, or its outcome (`type` pending | replaced | dropped | double_spent; opt-in, `pending`)",
      mempoolNotificationSchema,
      mempoolNotificationExample,
    ],
    [
      "delivery.exhausted",
      "DeliveryExhaustedNotification",
      "A delivery of another webhook of the account ran out of attempts",
      deliveryExhaustedNotificationSchema,
      deliveryExhaustedNotificationExample,
    ],
    [
      "webhook.disabled",
      "WebhookDisabledNotification",
      "A webhook of the account was disabled after 20 failed deliveries",
      webhookDisabledNotificationSchema,
      webhookDisabledNotificationExample,
    ],
    [
      "coverage",
      "CoverageNotification",
      "A coverage heartbeat (opt-in, `heartbeat_blocks` or `heartbeat_seconds`)",
      coverageNotificationSchema,
      coverageNotificationExample,
    ],
    ["test", "TestNotification", "A test event (`POST /api/v1/webhooks/{webhook}/test`)", testNotificationSchema, testNotificationExample],
  ];
  for (const [type, component, summary, schema, example] of events) {
    // Named explicitly: the generator collects components from paths only, not from webhooks.
    registry.register(component, schema);
    registry.registerWebhook({
      method: "post",
      path: type,
      tags: TAG,
      summary,
      operationId: `notification_${type.replace(".", "_")}`,
      request: { headers, body: { required: true, content: { "application/json": { schema, example } } } },
      responses: answers,
    });
  }
}
