/**
 * The webhook registry (`/api/v1/webhooks*`, owned by the delivery service): request and response
 * schemas, validated by the service and rendered into the OpenAPI document from the same definitions.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "../zod.ts";
import { GATEWAY_RESPONSES, RETRY_AFTER_HEADER, SECURITY, json } from "../openapi/openapi-registry.ts";
import { messageErrorSchema, validationErrorSchema } from "./error-bodies.ts";
import { COINS } from "../events/event-contract.ts";
import { DEFAULT_CONFIRMATIONS, MAX_CONFIRMATIONS } from "../webhook-settings.ts";
import { DEFAULT_PER_PAGE, FIRST_PAGE, MAX_PAGE, MAX_PER_PAGE, pageNumber } from "./xpub.ts";

/** The spec's limit for one address entry. */
export const WEBHOOK_ADDRESS_MAX_CHARS = 255;
/**
 * Most addresses in one create, PUT or batch body. 10,000 addresses are about 0.5 MB of JSON (under
 * the gateway's body cap) and one insert statement; a webhook grows past that through the batch
 * endpoints, so a 1,000,000-address webhook never needs one huge body.
 */
export const WEBHOOK_ADDRESSES_PER_REQUEST = 10_000;
/**
 * Most addresses of one webhook in a list answer (`GET /webhooks`), the first in address order;
 * `address_count` says how many it watches and `GET /webhooks/{id}/addresses` pages the rest. The
 * spec advises under about 1,000 per webhook, so a client within that still sees every address.
 */
export const WEBHOOK_LIST_ADDRESS_CAP = 1_000;
/** Address pages: default and largest `per_page` of `GET /webhooks/{id}/addresses`. */
export const WEBHOOK_ADDRESS_PAGE_DEFAULT = 1_000;
export const WEBHOOK_ADDRESS_PAGE_MAX = 10_000;
/**
 * Largest `page` of the registry's paged answers (webhooks, addresses, deliveries). A page number is
 * an offset, `(page - 1) × per_page`: bounded, it stays an exact integer and a Postgres bigint
 * (16 digits times 10,000 overflowed into a 500), and 10,000,000 pages still reach the ten millionth
 * row at `per_page=1`. Past the last page the answer is empty; `after` reads deep address lists.
 */
export const WEBHOOK_MAX_PAGE = MAX_PAGE;
/** Most extended-key records one webhook auto-watches. */
export const WEBHOOK_MAX_XPUB_IDS = 100;

const coinField = z
  .enum(COINS, { error: "The selected coin is invalid." })
  .openapi({ description: "`TRX`, `BTC` or `ETH`: one subscription covers a whole chain." });
const urlField = z
  .string({ error: "The webhook url field must be a string." })
  .max(2048, { error: "The webhook url field must not be greater than 2048 characters." })
  .openapi({
    description:
      "Public http(s) URL. Loopback, private, link-local, CGNAT, multicast, unspecified and IPv4-mapped IPv6 targets, cloud metadata and platform addresses (169.254.169.254, Azure's 168.63.129.16, fd00:ec2::254, …, in any IPv6 form), and host names resolving into any of them, are refused with 422.",
    example: "https://example.com/hooks/chaingate",
  });
const addressesField = z
  .array(
    z
      .string({ error: "Each address must be a string." })
      .min(1, { error: "Each address must not be empty." })
      .max(WEBHOOK_ADDRESS_MAX_CHARS, { error: `Each address must not be greater than ${WEBHOOK_ADDRESS_MAX_CHARS} characters.` }),
    { error: "The addresses field must be an array." },
  )
  .min(1, { error: "The addresses field must have at least 1 items." })
  .max(WEBHOOK_ADDRESSES_PER_REQUEST, { error: `The addresses field must not have more than ${WEBHOOK_ADDRESSES_PER_REQUEST} items.` })
  .openapi({
    description: `Watched addresses, 1 to ${WEBHOOK_ADDRESSES_PER_REQUEST} per request, validated per coin; duplicates collapse; ETH is stored and matched lower case.`,
  });
const isActiveField = z
  .boolean({ error: "The is active field must be true or false." })
  .openapi({ description: "Whether notifications are sent. Default true." });
const confirmationsMaxima = Object.entries(MAX_CONFIRMATIONS)
  .map(([coin, max]) => `${coin} ${max}`)
  .join(", ");
const confirmationsField = z
  .number({ error: "The confirmations field must be an integer." })
  .int({ error: "The confirmations field must be an integer." })
  .min(1, { error: "The confirmations field must be at least 1." })
  .openapi({
    description: `How deep a transfer's block must be before it is notified (1 = as soon as the scanner processes the block). Default ${DEFAULT_CONFIRMATIONS}; at most ${confirmationsMaxima} (more is a 422). A chaingate addition.`,
    example: 6,
  });
const includeTokensField = z.boolean({ error: "The include tokens field must be true or false." }).openapi({
  description:
    "ETH: also notify ERC-20 Transfer logs of the whitelisted tokens (default false: native transfers only, as in v1). BTC: always false (no tokens). TRX: always true (TRC-10 and TRC-20 transfers are always reported). Sending true for BTC or false for TRX is a 422. A chaingate addition.",
});
const xpubIdsField = z
  .array(
    z
      .number({ error: "Each xpub id must be an integer." })
      .int({ error: "Each xpub id must be an integer." })
      .positive({ error: "Each xpub id must be positive." }),
    {
      error: "The xpub ids field must be an array.",
    },
  )
  .max(WEBHOOK_MAX_XPUB_IDS, { error: `The xpub ids field must not have more than ${WEBHOOK_MAX_XPUB_IDS} items.` })
  .openapi({
    description:
      "Extended-key records of this account (ids from /api/v1/btc/xpub or /api/v1/eth/xpub, of the webhook's coin): the addresses issued from them are watched besides the webhook's own list — those issued before the key is named from then on (the answer lists those the registry has recorded; the rest of the key's history follows within moments), later ones from the moment they are issued. Removing a key stops watching its addresses, except those in the webhook's own list.",
  });

export const createWebhookRequestSchema = z
  .object({
    coin: coinField,
    webhook_url: urlField,
    addresses: addressesField,
    is_active: isActiveField.optional(),
    xpub_ids: xpubIdsField.optional(),
    confirmations: confirmationsField.optional(),
    include_tokens: includeTokensField.optional(),
  })
  .openapi("CreateWebhookRequest");
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

/**
 * PUT is a partial update: each field sent replaces the stored one (addresses: the webhook's whole
 * own list; the addresses its `xpub_ids` issued stay watched), a field left out is kept. `coin` cannot change (the addresses belong to it).
 */
export const updateWebhookRequestSchema = z
  .object({
    webhook_url: urlField.optional(),
    addresses: addressesField.optional(),
    is_active: isActiveField.optional(),
    xpub_ids: xpubIdsField.optional(),
    confirmations: confirmationsField.optional(),
    include_tokens: includeTokensField.optional(),
  })
  .openapi("UpdateWebhookRequest");
export type UpdateWebhookRequest = z.infer<typeof updateWebhookRequestSchema>;

export const webhookAddressBatchSchema = z.object({ addresses: addressesField }).openapi("WebhookAddressBatch");

/** `page`, 1 to WEBHOOK_MAX_PAGE. */
const registryPage = () =>
  pageNumber("page", FIRST_PAGE, WEBHOOK_MAX_PAGE).openapi({
    description: `Page number, starting at ${FIRST_PAGE}, at most ${WEBHOOK_MAX_PAGE}. A page past the last answers an empty \`data\` with the real \`meta\`.`,
  });

/** Webhook list paging: the xpub address history's `per_page` (default 50, at most 500), `page` at most WEBHOOK_MAX_PAGE. */
export const webhookListQuerySchema = z.object({
  page: registryPage(),
  per_page: pageNumber("per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE).openapi({
    description: `Items per page, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE}).`,
  }),
});

export const webhookSchema = z
  .object({
    id: z.number().int(),
    user_id: z.number().int().openapi({ description: "The owning account." }),
    coin: z.enum(COINS),
    webhook_url: z.string(),
    addresses: z.array(z.string()).openapi({
      description: `Every watched address (the webhook's own list plus the addresses issued by its \`xpub_ids\`), in address order. In the list answer (\`GET /api/v1/webhooks\`) at most the first ${WEBHOOK_LIST_ADDRESS_CAP}: compare with \`address_count\` and page the rest with \`GET /api/v1/webhooks/{webhook}/addresses\`. Every other answer carries them all (streamed by the service).`,
    }),
    address_count: z.number().int().openapi({ description: "How many addresses the webhook watches (a chaingate addition)." }),
    secret: z.string().openapi({ description: "`whsec_` + 64 hex characters; the whole string is the HMAC key.", example: "whsec_3f0c…" }),
    is_active: z
      .union([z.boolean(), z.literal(0), z.literal(1)])
      .openapi({ description: "The boolean sent in the create answer; 0 or 1 in every other answer (v1 compatibility)." }),
    xpub_ids: z.array(z.number().int()).openapi({ description: "Extended-key records auto-watched (a chaingate addition)." }),
    confirmations: z
      .number()
      .int()
      .openapi({ description: `Block depth at which transfers are notified (a chaingate addition; default ${DEFAULT_CONFIRMATIONS}).` }),
    include_tokens: z
      .boolean()
      .openapi({ description: "Whether token transfers are notified (a chaingate addition): ETH as chosen, BTC false, TRX true." }),
    last_triggered_at: z.null(),
    deleted_at: z.null(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("Webhook");
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookPageSchema = z
  .object({
    data: z.array(webhookSchema),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .openapi("WebhookPage");

export const webhookAddressPageQuerySchema = z.object({
  page: registryPage(),
  per_page: pageNumber("per_page", WEBHOOK_ADDRESS_PAGE_DEFAULT, WEBHOOK_ADDRESS_PAGE_MAX).openapi({
    description: `Addresses per page, 1 to ${WEBHOOK_ADDRESS_PAGE_MAX} (default ${WEBHOOK_ADDRESS_PAGE_DEFAULT}).`,
  }),
  after: z
    .string()
    .min(1, { error: "The after field must not be empty." })
    .max(WEBHOOK_ADDRESS_MAX_CHARS, { error: `The after field must not be greater than ${WEBHOOK_ADDRESS_MAX_CHARS} characters.` })
    .optional()
    .openapi({
      description:
        "Start after this address in address order: pass the previous page's `meta.next_after` to read on at the same cost however deep (a `page` number makes the database skip every earlier address). `page` then counts on from there; `current_page` and `last_page` count from the start of the list only without it.",
    }),
});

export const webhookAddressPageSchema = z
  .object({
    data: z.array(
      z.object({
        address: z.string(),
        listed: z
          .boolean()
          .openapi({ description: "true: in the webhook's own list; false: watched only because a key in its `xpub_ids` issued it." }),
      }),
    ),
    meta: z.object({
      current_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
      last_page: z.number().int(),
      next_after: z.string().nullable().openapi({
        description:
          "The page's last address when the page is full (send it as `after` for the next page); null when it is not, so no page follows.",
      }),
    }),
  })
  .openapi("WebhookAddressPage");

const webhookIdParam = z.object({
  webhook: z.number().int().nonnegative().openapi({ description: "Webhook id (digits; anything else is a routing miss).", example: 1 }),
});
const NOT_FOUND = json(
  "No webhook with this id belongs to the caller's account (also for non-numeric ids, as a routing miss).",
  messageErrorSchema,
);
const VALIDATION = json("`{message, errors}`: the field-by-field reasons.", validationErrorSchema);
const QUOTAS =
  "Also a quota, named with its value: `errors.webhooks` when the account has QUOTA_WEBHOOKS_PER_ACCOUNT live webhooks (default 1,000), `errors.addresses` when the write would leave the account watching more than QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT addresses over its webhooks (default 1,000,000; addresses issued by `xpub_ids` keys count but are never refused).";
const VALIDATION_OR_QUOTA = json(`\`{message, errors}\`: the field-by-field reasons. ${QUOTAS}`, validationErrorSchema);
const TAG = ["Webhooks"];
const dataOf = (schema: z.ZodType) => z.object({ data: schema });

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

// ── Delivery log and replay ─────────────────────────────────────────────────────────────────────

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "skipped"] as const;

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

export const deliverySchema = z
  .object({
    id: z.number().int(),
    webhook_id: z.number().int(),
    event_id: z
      .string()
      .openapi({ description: "The notification's `event_id` and `webhook-id` header: stable across retries and replays." }),
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        "pending (waiting for an attempt), delivered (2xx), failed (retries used up, or 410), skipped (the webhook was inactive or deleted).",
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
      'Queues `{event_id, type: "test", webhook_id, coin, created_at}`, signed and retried like any notification (also when the webhook is inactive).',
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
